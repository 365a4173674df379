"""Generation: verified drafts, retries bounded by a time budget and by progress, and the
fallback to the extractive answer (or the passages) when the model's answer cannot be used."""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from typing import TypeVar

from answer_factories import passage
from citewise.answer.excerpts import passage_excerpts
from citewise.answer.generate import (
    Generated,
    LLMSentenceJudge,
    answer_with_fallback,
    finished_sentences,
    generate_verified,
    is_decline,
    record_generation,
    retry_stop_reason,
)
from citewise.answer.prompts import UNVERIFIED
from citewise.llm.base import Completion, LLMConnectionError, LLMResponseError, Message
from citewise.testing.fakes import FakeLLM
from citewise.types import NOT_FOUND, Status, Token
from citewise.types.trace import Trace

T = TypeVar("T")

TOKENS = passage(
    1,
    "Send the token in the Authorization header as a bearer token. Tokens expire after 12 hours.",
    source="reference/api.html",
)
LIMITS = passage(
    2,
    "Uploads larger than 25 MB are rejected with status 413. The default request timeout "
    "is 30 seconds.",
    source="reference/limits.txt",
)
PASSAGES = [TOKENS, LIMITS]
EXTRACTIVE = "Tokens expire after 12 hours [1]."


def run(gen: Generator[Status | Token, None, T]) -> tuple[list[Status | Token], T]:
    """All events of a generation generator and the value it returns."""
    events: list[Status | Token] = []
    while True:
        try:
            events.append(next(gen))
        except StopIteration as stop:
            return events, stop.value


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class SlowLLM(FakeLLM):
    """A FakeLLM whose every call takes `seconds` on the given clock."""

    def __init__(self, clock: Clock, seconds: float, *replies: str | Exception) -> None:
        super().__init__(*replies)
        self.clock, self.seconds = clock, seconds

    def complete(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Completion:
        self.clock.now += self.seconds
        return super().complete(messages, json_mode=json_mode)


class CutStream(FakeLLM):
    """Streams a few deltas, then fails as a dropped connection would."""

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Iterator[str]:
        yield "Tokens expire "
        raise LLMResponseError("connection dropped after 14 chars of streamed output")


def test_retry_stops_when_it_would_not_fit_the_budget_or_made_no_progress() -> None:
    fits = {"elapsed_s": 10.0, "last_attempt_s": 10.0, "budget_s": 45.0}
    assert retry_stop_reason(**fits, unsupported_now=2, unsupported_before=None) == ""
    assert retry_stop_reason(**fits, unsupported_now=1, unsupported_before=2) == ""
    assert retry_stop_reason(**fits, unsupported_now=2, unsupported_before=2) == "no progress"
    late = {"elapsed_s": 30.0, "last_attempt_s": 20.0, "budget_s": 45.0}
    assert retry_stop_reason(**late, unsupported_now=2, unsupported_before=None) == "budget"


def test_supported_answer_streams_and_is_kept_in_one_attempt() -> None:
    events, draft = run(generate_verified(FakeLLM(EXTRACTIVE), "How long?", PASSAGES))
    assert "".join(e.text for e in events if isinstance(e, Token)) == EXTRACTIVE
    assert draft.text == EXTRACTIVE and draft.attempts == 1
    assert (draft.kept, draft.dropped, draft.retried) == (1, 0, 0)


def test_retry_that_would_overrun_the_budget_is_skipped() -> None:
    clock = Clock()
    llm = SlowLLM(clock, 30.0, "Tokens expire after 48 hours [1].", EXTRACTIVE)
    events, draft = run(generate_verified(llm, "How long?", PASSAGES, budget_s=45.0, clock=clock))
    assert draft.attempts == 1 and draft.stopped == "budget" and len(llm.calls) == 1
    assert draft.dropped == 1 and draft.text == ""
    assert any(isinstance(e, Status) and "budget" in e.message for e in events)


def test_retries_stop_when_a_retry_removes_no_unsupported_sentence() -> None:
    wrong = "Tokens expire after 48 hours [1]."
    llm = FakeLLM(wrong, "They expire after 48 hours [1].", EXTRACTIVE)
    _, draft = run(generate_verified(llm, "How long?", PASSAGES, max_retries=5))
    assert draft.attempts == 2 and draft.stopped == "no progress"
    assert draft.retried == 1 and draft.dropped == 1


def test_judge_past_its_deadline_does_not_call_the_llm() -> None:
    clock = Clock()
    llm = FakeLLM('{"supported": true}')
    judge = LLMSentenceJudge(llm, deadline=10.0, clock=clock)
    assert judge.judge("a claim", "evidence") is True
    clock.now = 10.0
    assert judge.judge("a claim", "evidence") is None
    assert judge.skipped == 1 and len(llm.calls) == 1


def test_everything_dropped_says_it_could_not_verify_without_a_fallback_or_the_text() -> None:
    wrong = "Tokens expire after 48 hours [1]."
    asked: list[bool] = []

    def extractive() -> str:
        asked.append(True)
        return EXTRACTIVE

    llm = FakeLLM(wrong)
    events, made = run(answer_with_fallback(llm, "How long?", PASSAGES, extractive, max_retries=1))
    assert made.text == UNVERIFIED and made.fallback is None and "48" not in made.text
    assert made.draft is not None and made.draft.dropped == 1 and made.draft.attempts == 2
    assert any("previous answer" in p and "48 hours" in p for p in llm.prompts)  # the retry
    assert asked == [] and not made.report.sentences
    assert not any(isinstance(e, Status) and e.stage == "fallback" for e in events)
    assert any(isinstance(e, Status) and "could not verify" in e.message for e in events)


def test_a_kept_answer_never_asks_for_the_extractive_one() -> None:
    def extractive() -> str:
        raise AssertionError("the fallback was computed for a supported answer")

    _, made = run(answer_with_fallback(FakeLLM(EXTRACTIVE), "How long?", PASSAGES, extractive))
    assert made.fallback is None and made.text == EXTRACTIVE


def test_a_failed_llm_without_an_extractive_answer_shows_the_passages() -> None:
    down = FakeLLM(LLMConnectionError("cannot connect to LLM server at http://127.0.0.1:9"))
    _, made = run(answer_with_fallback(down, "How long?", PASSAGES, lambda: ""))
    assert made.fallback is not None and made.fallback.used == "passages"
    assert made.text.splitlines() == [
        "Send the token in the Authorization header as a bearer token [1].",
        "Uploads larger than 25 MB are rejected with status 413 [2].",
    ]
    assert made.report.grounded


def test_llm_failures_fall_back_with_the_error_as_reason() -> None:
    down = FakeLLM(LLMConnectionError("cannot connect to LLM server at http://127.0.0.1:9"))
    _, made = run(answer_with_fallback(down, "How long?", PASSAGES, lambda: EXTRACTIVE))
    assert made.draft is None and made.text == EXTRACTIVE
    assert made.fallback is not None and "cannot connect" in made.fallback.reason

    events, made = run(answer_with_fallback(CutStream(), "How long?", PASSAGES, lambda: EXTRACTIVE))
    assert [e.text for e in events if isinstance(e, Token)] == ["Tokens expire "]
    assert made.text == EXTRACTIVE
    assert made.fallback is not None and "dropped" in made.fallback.reason


def test_a_declining_model_is_the_answer_even_when_extraction_has_one() -> None:
    asked: list[str] = []

    def extractive() -> str:
        asked.append("extractive")
        return EXTRACTIVE

    _, made = run(answer_with_fallback(FakeLLM(NOT_FOUND), "How long?", PASSAGES, extractive))
    assert made.text == NOT_FOUND and made.fallback is None and asked == []
    assert made.draft is not None and made.draft.declined
    assert not made.report.grounded


def test_generation_figures_and_the_fallback_are_recorded_in_the_timings() -> None:
    trace = Trace()
    wrong = "Tokens expire after 48 hours [1]."
    _, made = run(
        answer_with_fallback(
            FakeLLM(wrong), "How long?", PASSAGES, lambda: EXTRACTIVE, max_retries=0
        )
    )
    record_generation(trace, made)
    timings = trace.timings_ms()
    assert "llm_fallback" not in timings and timings["llm_sentences_dropped"] == 1.0
    assert timings["attempts"] == 1.0 and timings["llm_sentences_kept"] == 0.0
    down = FakeLLM(LLMConnectionError("cannot connect to LLM server at http://127.0.0.1:9"))
    _, failed = run(answer_with_fallback(down, "How long?", PASSAGES, lambda: EXTRACTIVE))
    record_generation(trace, failed)
    assert trace.timings_ms()["llm_fallback"] == 1.0
    assert isinstance(made, Generated)


def test_passage_excerpts_cut_long_sentences_at_a_word() -> None:
    long = passage(1, "word " * 100 + "end.")
    assert passage_excerpts([long], max_chars=40) == "word " * 8 + "… [1]"


class TickingStream(FakeLLM):
    """Streams `deltas`, each taking `seconds` on the clock; records whether it was closed."""

    def __init__(self, clock: Clock, seconds: float, deltas: list[str]) -> None:
        super().__init__("")
        self.clock, self.seconds, self.deltas = clock, seconds, deltas
        self.closed = False

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Iterator[str]:
        try:
            for d in self.deltas:
                self.clock.now += self.seconds
                yield d
        finally:
            self.closed = True


def test_a_draft_still_streaming_when_the_budget_runs_out_is_cut_at_its_last_sentence() -> None:
    clock = Clock()
    deltas = ["Tokens expire after 12 hours [1]. ", "Uploads larger than ", "25 MB fail [2]."]
    llm = TickingStream(clock, 20.0, deltas)
    events, draft = run(generate_verified(llm, "How long?", PASSAGES, budget_s=30.0, clock=clock))
    assert [e.text for e in events if isinstance(e, Token)] == deltas[:2]
    assert llm.closed and draft.stopped == "budget" and draft.attempts == 1
    assert draft.text == "Tokens expire after 12 hours [1]."


def test_finished_sentences_drops_an_unfinished_tail() -> None:
    assert finished_sentences("One [1]. Two is") == "One [1]."
    assert finished_sentences("One [1]") == "One [1]"
    assert finished_sentences("Half a sen") == ""


def test_a_budget_that_runs_out_before_a_finished_sentence_says_so() -> None:
    clock = Clock()
    llm = TickingStream(clock, 40.0, ["Tokens expire", " after 12 hours [1]."])
    _, made = run(
        answer_with_fallback(
            llm, "How long?", PASSAGES, lambda: EXTRACTIVE, budget_s=30.0, clock=clock
        )
    )
    assert made.text == EXTRACTIVE and made.fallback is not None
    assert (
        made.fallback.reason
        == "the time budget (30 s) ran out before the model finished a sentence"
    )
    assert made.draft is not None and not made.draft.declined


def test_a_paraphrased_decline_without_citations_is_a_decline() -> None:
    assert is_decline("The provided passages do not mention how long tokens last.")
    assert is_decline("There is no information about token lifetimes in the documents.")
    assert not is_decline("Tokens expire after 12 hours [1]. The documents do not say more.")
    assert not is_decline("Tokens expire after 12 hours [1].")


def test_an_empty_reply_falls_back_as_a_failure_not_a_decline() -> None:
    _, made = run(answer_with_fallback(FakeLLM(""), "How long?", PASSAGES, lambda: EXTRACTIVE))
    assert made.text == EXTRACTIVE and made.fallback is not None
    assert made.fallback.reason == "the model sent an empty answer"
