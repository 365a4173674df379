"""A terse sentence read after what it leans on: it may then answer, never make an answer."""

from __future__ import annotations

from typing import Any

import pytest

from answer_factories import passage
from citewise.extractive.answerer import ExtractiveAnswerer
from citewise.extractive.candidates import CandidateSentence
from citewise.extractive.compose import ExtractiveResult
from citewise.extractive.terse import contexts_of, in_context
from fake_embedder import answerer

ENTRY = passage(
    1,
    "Sets the maximum pool size of each connection pool opener. "
    "Requests wait when every connection is busy. "
    "The handler decides the rest. "
    "It is 10.",
    section="Reference > pool_size (integer)",
)


def test_a_terse_sentence_leans_on_the_sentences_before_it_its_opening_and_heading() -> None:
    sentences = ["Opening.", "Second.", "Third.", "Fourth.", "Short one."]
    cand = CandidateSentence(ENTRY, 4, "Short one.", 1.0, frozenset())
    assert contexts_of(cand, sentences) == ["Third.", "Fourth.", "Opening.", "pool_size (integer)"]
    first = CandidateSentence(ENTRY, 0, "Opening.", 1.0, frozenset())
    assert contexts_of(first, sentences) == ["pool_size (integer)"]


def test_a_terse_sentence_stating_the_value_answers_when_read_in_context() -> None:
    question = "What is the maximum pool size of a connection pool opener?"
    options = {"max_sentences": 1, "terse_words": 4, "min_words": 2, "lexical_weight": 0.0}
    on, emb = answerer(terse_context_share=1.0, **options)
    off, _ = answerer(terse_context_share=0.0, **options)
    assert "It is 10" not in off.answer(question, [ENTRY]).text
    assert "It is 10 [1]." in on.answer(question, [ENTRY]).text
    assert len(emb.batches) == 2  # the candidates, then the terse one's readings


def test_reading_in_context_never_turns_an_abstention_into_an_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lone = passage(1, "It is 10.", section="Reference > maximum pool size of each connection")
    question = "What is the maximum pool size of a connection pool opener?"
    calls: list[tuple[bool, tuple[object, ...]]] = []
    real = ExtractiveAnswerer._decide

    def spy(self: ExtractiveAnswerer, *args: Any, in_context: bool = False) -> ExtractiveResult:
        calls.append((in_context, args))
        return real(self, *args, in_context=in_context)

    monkeypatch.setattr(ExtractiveAnswerer, "_decide", spy)
    a, emb = answerer(terse_context_share=1.0, terse_words=4, min_words=2)
    assert a.answer(question, [lone]).kind != "answer"
    assert [in_context for in_context, _ in calls] == [False]  # never read in context
    # read in context, the same candidates would have answered
    asked, passages, cands, split, plain, vectors, qv, framing, reading_on = calls[0][1]
    read = in_context(cands, split, vectors, qv, emb, share=1.0, max_words=4, max_chars=300)
    would = real(a, asked, passages, cands, split, plain, read, qv, framing, reading_on,
                 in_context=True)  # fmt: skip
    assert not would.abstained and "It is 10" in would.text
