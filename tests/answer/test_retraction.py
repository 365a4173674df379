"""Streaming stays streaming: a streamed sentence the check drops is retracted with an event,
as soon as it is finished when the lexical check decides, and on every channel."""

from __future__ import annotations

import io
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace
from typing import TypeVar

from rich.console import Console

from answer_factories import passage
from citewise.answer.generate import generate_verified
from citewise.api.sse import event_payload
from citewise.cli.render.answer import render_stream
from citewise.llm.base import Message
from citewise.testing.fakes import FakeLLM
from citewise.types import Answer, Done, Event, Retraction, Status, Token

T = TypeVar("T")

TOKENS = passage(1, "Tokens expire after 12 hours. Send them as bearer tokens.", source="api.html")
LIMITS = passage(2, "Uploads larger than 25 MB are rejected with status 413.", source="limits.txt")


class Deltas(FakeLLM):
    """Streams the given deltas on the first attempt; later attempts reply `retry`."""

    def __init__(self, deltas: list[str], retry: str = "") -> None:
        super().__init__(retry or "".join(deltas))
        self.deltas = deltas

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Iterator[str]:
        yield from self.deltas


def run(gen: Generator[Status | Token | Retraction, None, T]) -> tuple[list[object], T]:
    events: list[object] = []
    while True:
        try:
            events.append(next(gen))
        except StopIteration as stop:
            return events, stop.value


def test_an_invented_value_is_retracted_as_soon_as_its_sentence_is_finished() -> None:
    deltas = ["Tokens expire after 48 hours [1]. ", "Uploads larger than 25 MB ", "fail [2]."]
    events, draft = run(generate_verified(Deltas(deltas), "How long?", [TOKENS, LIMITS]))
    kinds = [type(e).__name__ for e in events if isinstance(e, Token | Retraction)]
    assert kinds == ["Token", "Token", "Retraction", "Token"]  # before the stream ends
    retraction = next(e for e in events if isinstance(e, Retraction))
    assert retraction.sentence == "Tokens expire after 48 hours [1]."
    assert "48hours" in retraction.reason or "48" in retraction.reason
    assert draft.text == "Uploads larger than 25 MB fail [2]."


def test_a_wrongly_cited_sentence_is_repaired_not_retracted() -> None:
    deltas = ["Uploads larger than 25 MB are rejected with status 413 [1]. ", "Tokens expire ",
              "after 12 hours [1]."]  # fmt: skip
    events, draft = run(generate_verified(Deltas(deltas), "Upload limit?", [TOKENS, LIMITS]))
    assert not [e for e in events if isinstance(e, Retraction)]
    assert draft.text == (
        "Uploads larger than 25 MB are rejected with status 413 [2]. "
        "Tokens expire after 12 hours [1]."
    )


def test_a_retraction_is_an_sse_event_with_the_sentence_and_the_reason() -> None:
    name, data = event_payload(Retraction("Tokens expire after 48 hours [1].", "48hours"), "s")
    assert name == "retraction"
    assert data == {"sentence": "Tokens expire after 48 hours [1].", "reason": "48hours"}


def test_the_cli_shows_the_withdrawal() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    deltas = ["Tokens expire after 48 hours [1]. ", "Uploads larger than 25 MB fail [2]."]
    flow = generate_verified(Deltas(deltas), "How long?", [TOKENS, LIMITS])
    events, _ = run(flow)
    answer = Answer(
        "Uploads larger than 25 MB fail [2].", "question", (), (), True, "high", "s", {}
    )
    shown: list[Event] = [e for e in events if isinstance(e, Status | Token | Retraction)]
    render_stream([*shown, Done(answer)], console, show_status=False)
    assert "withdrawn: not in the cited passage" in out.getvalue()


def test_the_api_answer_carries_the_fallback_and_why() -> None:
    from citewise.api.schemas import AnswerModel
    from citewise.types import Fallback

    base = Answer("Tokens expire after 12 hours [1].", "question", (), (), True, "high", "s", {})
    assert AnswerModel.of(base, "s").model_dump()["fallback"] is None
    failed = replace(base, fallback=Fallback("extractive", "the LLM failed: timed out"))
    dumped = AnswerModel.of(failed, "s").model_dump()["fallback"]
    assert dumped == {"used": "extractive", "reason": "the LLM failed: timed out"}
