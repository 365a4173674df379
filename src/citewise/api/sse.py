"""The one place that knows SSE: the chat flow's typed events as `text/event-stream`, and
as the OpenAI chat-completion chunks `/v1/chat/completions` streams.

The flow is a blocking iterator; each step runs in the answer's slot (answer/slots.py). When
the client goes away the response task is cancelled and the flow is closed, so generation
stops, and the answer's slot is freed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from typing import Any

import anyio
from fastapi.sse import EventSourceResponse, format_sse_event

from citewise.answer.slots import Ticket
from citewise.api.schemas import AnswerModel, CitationModel, HitModel
from citewise.errors import CitewiseError
from citewise.types import (
    Answer,
    CitationEvent,
    Done,
    ErrorEvent,
    Event,
    Retraction,
    Sources,
    Status,
    Token,
)

log = logging.getLogger(__name__)
PING = object()
PING_SECONDS = 15.0  # a comment line this often keeps proxies from closing a quiet stream
KEEPALIVE = b": ping\n\n"
# for OpenAPI: these routes answer with an event stream
SSE_DOC: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/event-stream": {}}, "description": "server-sent events"}
}
STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def event_payload(event: Event, public_session: str) -> tuple[str, dict[str, Any]]:
    """(SSE event name, JSON data) of one flow event."""
    if isinstance(event, Status):
        return "status", {"stage": event.stage, "message": event.message}
    if isinstance(event, Token):
        return "token", {"text": event.text}
    if isinstance(event, Retraction):
        return "retraction", {"sentence": event.sentence, "reason": event.reason}
    if isinstance(event, Sources):
        return "sources", {"sources": [HitModel.of(h).model_dump() for h in event.hits]}
    if isinstance(event, CitationEvent):
        return "citation", CitationModel.of(event.citation).model_dump()
    if isinstance(event, Done):
        return "done", AnswerModel.of(event.answer, public_session).model_dump()
    if isinstance(event, ErrorEvent):
        return "error", {"error": event.message, "type": event.kind}
    raise TypeError(f"not a flow event: {event!r}")


def encode(name: str | None, data: dict[str, Any] | str) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return format_sse_event(data_str=text, event=name)


async def iterate_in_thread(
    flow: Iterator[Any],
    ping_every: float | None = None,
    *,
    limiter: anyio.CapacityLimiter | None = None,
) -> AsyncIterator[Any]:
    """Steps a blocking iterator in worker threads (under `limiter`, else anyio's default),
    yielding `PING` whenever `ping_every` seconds pass without an item; closes the iterator
    when the consumer stops (client disconnect, cancellation) so the work behind it stops."""
    done = object()
    step: asyncio.Task[Any] | None = None
    try:
        while True:
            step = asyncio.ensure_future(
                anyio.to_thread.run_sync(next, flow, done, limiter=limiter)
            )
            while True:
                try:
                    item = await asyncio.wait_for(asyncio.shield(step), ping_every)
                    break
                except TimeoutError:
                    yield PING
            step = None
            if item is done:
                return
            yield item
    finally:
        with anyio.CancelScope(shield=True):
            if step is not None:  # a step still runs: the iterator is busy until it ends
                with contextlib.suppress(Exception):
                    await step
            close: Callable[[], None] | None = getattr(flow, "close", None)
            if close is not None:
                await anyio.to_thread.run_sync(close)


def event_stream(flow: Iterator[Event], public_session: str, ticket: Ticket) -> EventSourceResponse:
    async def body() -> AsyncIterator[bytes]:
        with ticket:
            async for event in iterate_in_thread(flow, PING_SECONDS, limiter=ticket.limiter):
                if event is PING:
                    yield KEEPALIVE
                    continue
                name, data = event_payload(event, public_session)
                yield encode(name, data)

    return EventSourceResponse(body(), headers=STREAM_HEADERS)


def reported(flow: Iterator[Event]) -> Iterator[Event]:
    """The flow yields an `ErrorEvent` before it re-raises one of ours: on a stream that
    event is the report, and the stream ends. Anything else is logged and reported."""
    try:
        yield from flow
    except CitewiseError:
        return
    except Exception as exc:
        log.exception("the answer flow failed")
        yield ErrorEvent(f"internal error ({type(exc).__name__})", type(exc).__name__)


def openai_chunks(
    flow: Iterator[Event], ticket: Ticket, *, completion_id: str, created: int, model: str
) -> AsyncGenerator[bytes]:
    """The flow as OpenAI `chat.completion.chunk`s: the role, one chunk per token, a last
    one with `finish_reason` "stop" and the citations, then `[DONE]` (or the error)."""

    def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
        data = {"id": completion_id, "object": "chat.completion.chunk", "created": created,
                "model": model, "choices": [{"index": 0, "delta": delta,
                                             "finish_reason": finish}], **extra}  # fmt: skip
        return f"data: {json.dumps(data, ensure_ascii=False)}\n\n".encode()

    async def chunks() -> AsyncGenerator[bytes]:
        with ticket:
            yield chunk({"role": "assistant", "content": ""})
            steps = iterate_in_thread(reported(flow), PING_SECONDS, limiter=ticket.limiter)
            async for event in steps:
                if event is PING:
                    yield KEEPALIVE
                elif isinstance(event, Token):
                    yield chunk({"content": event.text})
                elif isinstance(event, Done):
                    yield chunk({}, "stop", citations=citations_json(event.answer))
                elif isinstance(event, ErrorEvent):
                    error = {"error": {"message": event.message, "type": event.kind}}
                    yield f"data: {json.dumps(error)}\n\n".encode()
                    return
            yield b"data: [DONE]\n\n"

    return chunks()


def citations_json(answer: Answer) -> list[dict[str, Any]]:
    return [CitationModel.of(c).model_dump() for c in answer.citations]
