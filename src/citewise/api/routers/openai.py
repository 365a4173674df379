"""The OpenAI-compatible face: `/v1/models` (one model per collection the caller may read)
and `/v1/chat/completions` (streaming too). The conversation comes from the messages;
citations are `[n]` in the text and a `citations` list on the response / final chunk."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import aclosing
from functools import partial
from typing import Any, Literal

import anyio
from fastapi import APIRouter
from fastapi.sse import EventSourceResponse
from pydantic import BaseModel

from citewise.answer.slots import Ticket
from citewise.api.answer_slots import SlotsDep
from citewise.api.deps import AssistantDep, readable_async, session_key
from citewise.api.security import Reader
from citewise.api.sse import STREAM_HEADERS, citations_json, openai_chunks
from citewise.assistant import Assistant, final_answer
from citewise.auth.access import readable_collections
from citewise.auth.models import Principal
from citewise.errors import InputError, NotFoundError
from citewise.types import Answer, Event

router = APIRouter(prefix="/v1", tags=["openai"])
DEFAULT_MODEL = "citewise"


class ChatMessage(BaseModel):
    role: Literal["system", "user", "assistant", "tool", "developer"]
    content: str | list[dict[str, Any]] | None = None


class CompletionRequest(BaseModel):
    model: str = DEFAULT_MODEL
    messages: list[ChatMessage]
    stream: bool = False
    # accepted for compatibility; the answer comes from the documents either way
    temperature: float | None = None
    max_tokens: int | None = None
    user: str | None = None


def _text(message: ChatMessage) -> str:
    if isinstance(message.content, list):
        return " ".join(str(p.get("text", "")) for p in message.content if p.get("type") == "text")
    return message.content or ""


def _model_names(principal: Principal, assistant: Assistant) -> list[str]:
    """The caller's own and the global collection first, then every other collection it may
    read (granted ones; for an admin, every one in the store); chats' collections are not
    models."""
    first = readable_collections(principal, None)
    others = set(principal.readable) | (
        set(assistant.collections()) if principal.is_admin else set()
    )
    return first + sorted(n for n in others if n not in first and not n.startswith("chat-"))


async def _collections(principal: Principal, assistant: Assistant, model: str) -> list[str]:
    """A model is `citewise` or one of `/v1/models`, whoever asks (an admin too: a
    mistyped model is an error, not a new, empty collection)."""
    if model == DEFAULT_MODEL:
        return await readable_async(principal, None, assistant)
    if model not in _model_names(principal, assistant):
        raise NotFoundError(f"no model {model!r}: GET /v1/models lists the collections")
    return await readable_async(principal, model, assistant)


def _conversation(assistant: Assistant, key: str, messages: list[ChatMessage]) -> str:
    """Loads the earlier user/assistant pairs into a throwaway session; returns the last
    user message (the question)."""
    turns = [m for m in messages if m.role in ("user", "assistant")]
    if not turns or turns[-1].role != "user":
        raise InputError("the last message must be the user's question")
    question = _text(turns[-1])
    assistant.replay(key, _exchanges(turns[:-1]))
    return question


def _exchanges(messages: list[ChatMessage]) -> Iterator[tuple[str, str]]:
    """Each user message with the assistant message that answered it."""
    pending: str | None = None
    for m in messages:
        if m.role == "user":
            pending = _text(m)
        elif pending is not None:
            yield pending, _text(m)
            pending = None


@router.get("/models")
def models(principal: Reader, assistant: AssistantDep) -> dict[str, object]:
    """The collections the caller may read, as models (`_model_names`); the model
    `citewise` asks the caller's own and the global collection."""
    names = _model_names(principal, assistant)
    now = int(time.time())
    return {
        "object": "list",
        "data": [
            {"id": name, "object": "model", "created": now, "owned_by": "citewise"}
            for name in names
        ],
    }


def _open_flow(
    assistant: Assistant, key: str, messages: list[ChatMessage], collections: list[str]
) -> Iterator[Event]:
    try:
        question = _conversation(assistant, key, messages)
        return assistant.stream(question, session_id=key, collections=collections)
    except BaseException:
        assistant.forget_session(key)
        raise


def _run_to_end(assistant: Assistant, key: str, flow: Iterator[Event]) -> Answer:
    try:
        return final_answer(flow)
    finally:
        assistant.forget_session(key)


@router.post("/chat/completions", response_model=None)
async def chat_completions(
    body: CompletionRequest, principal: Reader, assistant: AssistantDep, slots: SlotsDep
) -> dict[str, object] | EventSourceResponse:
    collections = await _collections(principal, assistant, body.model)
    key = session_key(principal, f"v1-{uuid.uuid4().hex[:16]}")
    assert key is not None
    ticket = slots.admit()
    try:
        flow = await ticket.run(partial(_open_flow, assistant, key, body.messages, collections))
    except BaseException:
        ticket.release()
        raise
    cid, created = f"chatcmpl-{uuid.uuid4().hex}", int(time.time())
    if not body.stream:
        with ticket:
            answer = await ticket.run(_run_to_end, assistant, key, flow)
        return {
            "id": cid, "object": "chat.completion", "created": created, "model": body.model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": answer.answer}}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            "citations": citations_json(answer),
        }  # fmt: skip
    return EventSourceResponse(
        _chunks(flow, ticket, assistant, key, cid, created, body.model), headers=STREAM_HEADERS
    )


async def _chunks(
    flow: Iterator[Event],
    ticket: Ticket,
    assistant: Assistant,
    key: str,
    cid: str,
    created: int,
    model: str,
) -> AsyncIterator[bytes]:
    chunks = openai_chunks(flow, ticket, completion_id=cid, created=created, model=model)
    try:
        async with aclosing(chunks):
            async for data in chunks:
                yield data
    finally:
        # a blocking memory call kept off the event loop, and finished even when cancelled
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(assistant.forget_session, key)
