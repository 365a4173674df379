"""A terse sentence read after what it leans on: it may then answer, never make an answer."""

from __future__ import annotations

from answer_factories import passage
from fake_embedder import answerer

from citewise.answer.candidates import Candidate
from citewise.answer.terse import contexts_of

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
    cand = Candidate(ENTRY, 4, "Short one.", 1.0, frozenset())
    assert contexts_of(cand, sentences) == ["Third.", "Fourth.", "Opening.", "pool_size (integer)"]
    first = Candidate(ENTRY, 0, "Opening.", 1.0, frozenset())
    assert contexts_of(first, sentences) == ["pool_size (integer)"]


def test_a_terse_sentence_stating_the_value_answers_when_read_in_context() -> None:
    question = "What is the maximum pool size of a connection pool opener?"
    options = {"max_sentences": 1, "terse_words": 4, "min_words": 2, "lexical_weight": 0.0}
    on, emb = answerer(terse_context_share=1.0, **options)
    off, _ = answerer(terse_context_share=0.0, **options)
    assert "It is 10" not in off.answer(question, [ENTRY]).text
    assert "It is 10 [1]." in on.answer(question, [ENTRY]).text
    assert len(emb.batches) == 2  # the candidates, then the terse one's readings


def test_reading_in_context_never_turns_an_abstention_into_an_answer() -> None:
    question = "Which colour is the pool opener painted?"
    on, _ = answerer(threshold=0.9, terse_context_share=1.0, terse_words=4, min_words=2)
    assert on.answer(question, [ENTRY]).abstained
