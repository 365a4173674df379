"""The relevance gate decides from retrieval evidence alone: the question's vector against the
passages' stored vectors, the question's words in the passages, the names it asks about."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from answer_factories import passage
from citewise.embed.base import Vectors
from citewise.retrieve.gate import GateOptions, RelevanceGate, coverage

QUESTION = np.array([1.0, 0.0], dtype=np.float32)


def _lookup(by_id: dict[int, list[float]]) -> object:
    def lookup(ids: Sequence[int]) -> Mapping[int, Vectors]:
        return {i: np.array(by_id[i], dtype=np.float32) for i in ids if i in by_id}

    return lookup


def _gate(by_id: dict[int, list[float]], **options: float) -> RelevanceGate:
    return RelevanceGate(_lookup(by_id), GateOptions(**options))  # type: ignore[arg-type]


def test_a_passage_close_to_the_question_passes_and_a_far_one_is_refused() -> None:
    p = passage(1, "Refunds are paid within 30 days of the request.")
    question = "Within how many days are refunds paid?"
    near = _gate({101: [0.9, 0.436]}, threshold=0.8, coverage_weight=0.0)
    far = _gate({101: [0.2, 0.98]}, threshold=0.8, coverage_weight=0.0)
    assert near.decide(question, [p], QUESTION).relevant
    refused = far.decide(question, [p], QUESTION)
    assert not refused.relevant and "below" in refused.reason


def test_the_question_s_words_in_a_passage_count_toward_passing() -> None:
    p = passage(1, "Refunds are paid within 30 days of the request.")
    vectors = {101: [0.5, 0.866]}
    question = "Within how many days are refunds paid?"
    assert coverage(question, p) == 1.0
    assert (
        not _gate(vectors, threshold=0.8, coverage_weight=0.0)
        .decide(question, [p], QUESTION)
        .relevant
    )
    assert (
        _gate(vectors, threshold=0.8, coverage_weight=0.5).decide(question, [p], QUESTION).relevant
    )


def test_a_name_no_passage_mentions_is_refused_whatever_the_scores() -> None:
    p = passage(1, "The pool size is set by max_workers.")
    gate = _gate({101: [1.0, 0.0]}, threshold=0.0)
    decision = gate.decide("What is the default of pool_timeout?", [p], QUESTION)
    assert not decision.relevant and "pool_timeout" in decision.reason
    assert gate.decide("What is the default of max_workers?", [p], QUESTION).relevant


def test_no_passages_are_refused() -> None:
    assert not _gate({}).decide("Anything?", [], QUESTION).relevant


def test_only_the_first_passages_are_weighed() -> None:
    far = [passage(n, "Unrelated text about the weather.") for n in (1, 2, 3)]
    near = passage(4, "Refunds are paid within 30 days.")
    vectors = {101: [0.0, 1.0], 102: [0.0, 1.0], 103: [0.0, 1.0], 104: [1.0, 0.0]}
    gate = _gate(vectors, threshold=0.8, coverage_weight=0.0, look_at=3)
    assert not gate.decide("When are refunds paid?", [*far, near], QUESTION).relevant


def test_a_refusal_on_the_score_alone_is_not_firm_and_a_missing_name_is() -> None:
    p = passage(1, "The pool size is set by max_workers.")
    on_score = _gate({101: [0.0, 1.0]}, threshold=0.9).decide(
        "What sets the pool size?", [p], QUESTION
    )
    assert not on_score.relevant and not on_score.firm
    named = _gate({101: [1.0, 0.0]}, threshold=0.0).decide(
        "What is the default of pool_timeout?", [p], QUESTION
    )
    assert not named.relevant and named.firm
    assert _gate({}).decide("Anything?", [], QUESTION).firm
