"""The chat routes (Axiom's API): one answer, a streamed answer, a chat's own documents,
and a session's history."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from functools import partial

from anyio import to_thread
from fastapi import APIRouter

from citewise.answer.slots import AnswerSlots
from citewise.api.answer_slots import SlotsDep
from citewise.api.deps import (
    AssistantDep,
    check_chat_id,
    public_session,
    readable_async,
    session_key,
)
from citewise.api.schemas import AnswerModel, ChatRequest, HistoryResponse
from citewise.api.security import Reader
from citewise.api.sse import SSE_DOC, event_stream, reported
from citewise.assistant import Assistant
from citewise.auth.models import Principal
from citewise.chat.memory.base import validate_session_id
from citewise.errors import NotFoundError
from citewise.types import Event

router = APIRouter(prefix="/chat", tags=["chat"])


async def _session(
    principal: Principal, assistant: Assistant, given: str | None, *, create: bool = False
) -> tuple[str, str]:
    """(public id, memory key); a new conversation gets a fresh id. A given id must name a
    live conversation unless the client asks to `create` it (a mistyped or expired id is
    not silently a new, empty conversation)."""
    public = validate_session_id(given) if given else uuid.uuid4().hex[:12]
    key = session_key(principal, public)
    assert key is not None
    # the memory (Redis, PostgreSQL, SQLite) blocks: asked on a thread, not the event loop
    if given and not create and not await to_thread.run_sync(_exists, assistant, key):
        raise NotFoundError(
            f"no conversation session {given!r} (unknown or expired): leave session_id out "
            "to start a conversation, or send create_session: true to start one under this id"
        )
    return public, key


def _exists(assistant: Assistant, key: str) -> bool:
    return assistant.has_session(key)


async def _event_stream(
    slots: AnswerSlots, start: Callable[[], Iterator[Event]], public: str
) -> object:
    """The flow `start` opens, streamed in an answer slot (429 when there is none)."""
    ticket = slots.admit()
    try:
        flow = await ticket.run(start)
    except BaseException:
        ticket.release()
        raise
    return event_stream(reported(flow), public, ticket)


@router.post("/", response_model=AnswerModel)
async def chat(
    body: ChatRequest, principal: Reader, assistant: AssistantDep, slots: SlotsDep
) -> AnswerModel:
    """One complete answer (`citewise ask --json`)."""
    public, key = await _session(principal, assistant, body.session_id, create=body.create_session)
    collections = await readable_async(principal, body.collection, assistant)
    with slots.admit() as ticket:
        ask = partial(assistant.ask, body.message, session_id=key, collections=collections)
        answer = await ticket.run(ask)
    return AnswerModel.of(answer, public)


@router.post("/stream", responses=SSE_DOC)
async def chat_stream(
    body: ChatRequest, principal: Reader, assistant: AssistantDep, slots: SlotsDep
) -> object:
    """Server-sent events: `status`, `token` (deltas), `sources`, `citation`, `done`
    (the whole answer, as `POST /chat/`), or `error`."""
    public, key = await _session(principal, assistant, body.session_id, create=body.create_session)
    collections = await readable_async(principal, body.collection, assistant)
    stream = partial(assistant.stream, body.message, session_id=key, collections=collections)
    return await _event_stream(slots, stream, public)


@router.post("/{chat_id}/stream", responses=SSE_DOC)
async def chat_scoped_stream(
    chat_id: str, body: ChatRequest, principal: Reader, assistant: AssistantDep, slots: SlotsDep
) -> object:
    """As `/chat/stream`, answering from the documents uploaded to this chat first."""
    check_chat_id(chat_id)
    # a chat's first question starts its conversation under the chat's id
    public, key = await _session(
        principal, assistant, body.session_id or chat_id,
        create=body.create_session or body.session_id is None,
    )  # fmt: skip
    collections = await readable_async(principal, body.collection, assistant, chat_id=chat_id)
    stream = partial(assistant.stream, body.message, session_id=key, collections=collections)
    return await _event_stream(slots, stream, public)


@router.get("/history/{session_id}", response_model=HistoryResponse)
def history(session_id: str, principal: Reader, assistant: AssistantDep) -> HistoryResponse:
    key = session_key(principal, session_id)
    assert key is not None
    turns = assistant.history(key)
    public = public_session(principal, key)
    return HistoryResponse(
        session_id=public,
        turns=[{**json.loads(t.to_json()), "session_id": public} for t in turns],
    )


@router.delete("/history/{session_id}", status_code=204)
def delete_history(session_id: str, principal: Reader, assistant: AssistantDep) -> None:
    key = session_key(principal, session_id)
    assert key is not None
    assistant.delete_session(key)
