"""Conversation summaries: threshold, extractive and LLM summaries, recent_context."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.chat.history_summary import (
    SUMMARY_PROMPT,
    approx_tokens,
    extractive_summary,
    first_sentence,
    maybe_summarize,
    recent_context,
    should_summarize,
    summarize_turns,
)
from citewise.chat.memory import SQLiteMemory, Turn
from citewise.errors import NotFoundError
from citewise.llm import LLMConnectionError
from citewise.testing.fakes import FakeLLM


def turn(n: int, words: int = 10, sid: str = "s1") -> Turn:
    filler = "More " + " ".join(["word"] * words)
    return Turn(sid, f"What about topic {n}?", f"Topic {n} is explained [1]. {filler}.", "question")


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[SQLiteMemory]:
    with SQLiteMemory(tmp_path / "memory.db") as memory:
        yield memory


def test_token_estimate_is_words_times_1_3() -> None:
    assert approx_tokens("one two three four five six seven eight nine ten") == 13
    assert approx_tokens("") == 0


def test_should_summarize_only_above_the_threshold() -> None:
    turns = [Turn("s", "a b c d e", "f g h i j", "question")]  # 10 words = 13 tokens
    assert not should_summarize(turns, 13)
    assert should_summarize(turns, 12)
    assert not should_summarize([], 0)


def test_first_sentence_drops_citation_markers() -> None:
    text = "The limit is 10 MB [1, 2]. It can be raised [3]."
    assert first_sentence(text) == "The limit is 10 MB."
    assert first_sentence("") == ""


def test_extractive_summary_keeps_questions_and_first_sentences_only() -> None:
    summary = extractive_summary([turn(1), turn(2)])
    assert "What about topic 1?" in summary and "Topic 2 is explained." in summary
    assert "word" not in summary and "[1]" not in summary


def test_extractive_summary_is_capped_and_keeps_the_newest_exchanges() -> None:
    summary = extractive_summary([turn(n) for n in range(40)])
    assert len(summary.split()) <= 130
    assert "topic 39" in summary and "topic 0?" not in summary
    assert summary.startswith("(") and "earlier exchanges omitted" in summary


def test_summarize_without_llm_is_extractive() -> None:
    assert summarize_turns([turn(1)], None) == extractive_summary([turn(1)])
    assert summarize_turns([], None, previous="kept") == "kept"


def test_summarize_with_llm_sends_prompt_previous_summary_and_transcript() -> None:
    llm = FakeLLM("  The user asked about topic 3.  ")
    assert summarize_turns([turn(3)], llm, previous="Earlier: topic 1.") == (
        "The user asked about topic 3."
    )
    system, user = llm.calls[0].messages
    assert system.role == "system" and system.content == SUMMARY_PROMPT
    assert "Earlier: topic 1." in user.content and "User: What about topic 3?" in user.content


@pytest.mark.parametrize("llm", [FakeLLM(LLMConnectionError("down")), FakeLLM(" ")])
def test_llm_failure_or_empty_reply_falls_back_to_extractive_and_logs(
    llm: FakeLLM, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="citewise.chat.history_summary"):
        assert summarize_turns([turn(1)], llm) == extractive_summary([turn(1)])
    assert "fake:llm" in caplog.text and "extractive" in caplog.text


def test_maybe_summarize_does_nothing_below_the_threshold(memory: SQLiteMemory) -> None:
    for n in range(6):
        memory.append(turn(n))
    assert maybe_summarize(memory, "s1", None, token_threshold=10_000) is False
    assert memory.summary("s1") is None


def test_maybe_summarize_covers_all_but_the_recent_turns(memory: SQLiteMemory) -> None:
    for n in range(6):
        memory.append(turn(n, words=40))
    assert maybe_summarize(memory, "s1", None, token_threshold=100, keep_recent=4) is True
    info = memory.require("s1")
    assert info.covered_turns == 2
    summary, recent = recent_context(memory, "s1", last=5)
    assert summary is not None and "topic 0" in summary and "topic 1" in summary
    assert "topic 2" not in summary
    assert [t.question for t in recent] == [f"What about topic {n}?" for n in range(2, 6)]


def test_maybe_summarize_gives_the_llm_only_newly_covered_turns(memory: SQLiteMemory) -> None:
    llm = FakeLLM("first summary")
    for n in range(6):
        memory.append(turn(n, words=40))
    assert maybe_summarize(memory, "s1", llm, token_threshold=100, keep_recent=4)
    assert not maybe_summarize(memory, "s1", llm, token_threshold=10_000, keep_recent=4)
    for n in range(6, 9):
        memory.append(turn(n, words=40))
    llm.replies = ["second summary"]
    assert maybe_summarize(memory, "s1", llm, token_threshold=100, keep_recent=4)
    second = llm.calls[-1].messages[1].content
    assert "first summary" in second
    assert "topic 2?" in second and "topic 4?" in second
    assert "topic 1?" not in second and "topic 5?" not in second
    assert memory.summary("s1") == "second summary"
    assert memory.require("s1").covered_turns == 5


def test_maybe_summarize_stops_when_only_recent_turns_are_left(memory: SQLiteMemory) -> None:
    for n in range(3):
        memory.append(turn(n, words=200))
    assert maybe_summarize(memory, "s1", None, token_threshold=10, keep_recent=4) is False
    assert memory.summary("s1") is None


def test_maybe_summarize_requires_the_session(memory: SQLiteMemory) -> None:
    with pytest.raises(NotFoundError, match="nobody"):
        maybe_summarize(memory, "nobody", None, token_threshold=10)


def test_recent_context_of_an_unknown_session_is_empty(memory: SQLiteMemory) -> None:
    assert recent_context(memory, "nobody") == (None, [])


def test_recent_context_without_a_summary_returns_the_last_turns(memory: SQLiteMemory) -> None:
    for n in range(8):
        memory.append(turn(n))
    summary, recent = recent_context(memory, "s1", last=3)
    assert summary is None
    assert [t.question for t in recent] == [f"What about topic {n}?" for n in (5, 6, 7)]
    assert recent_context(memory, "s1", last=0) == (None, [])
