"""How a sentence fits beyond its score: the top passage's anchor (plain values)."""

from __future__ import annotations

from answer_factories import passage
from citewise.extractive.compose import ScoredSentence
from citewise.extractive.sentence_fit import anchored

TOP = passage(1, "Local software goes into /usr only to replace or upgrade software there.")
SECOND = passage(2, "The /usr/local/etc directory may be a symbolic link.")
ELSEWHERE = passage(3, "Other documents say something else.", source="other.html")


def scored(p: object, index: int, score: float) -> ScoredSentence:
    assert hasattr(p, "context")
    text = p.context  # type: ignore[attr-defined]
    return ScoredSentence(p, index, text, frozenset(), 0.5, 0.2, score)  # type: ignore[arg-type]


def clears(x: ScoredSentence) -> bool:
    return x.score >= 0.6


def test_an_answer_from_other_passages_also_quotes_the_top_passages_best_sentence() -> None:
    best, top = scored(SECOND, 0, 0.9), scored(TOP, 0, 0.8)
    picks = anchored([best], [best, top], TOP, clears, limit=3)
    assert picks == [best, top]


def test_the_anchor_takes_the_last_place_when_the_answer_is_full() -> None:
    best, runner, top = scored(SECOND, 0, 0.9), scored(SECOND, 1, 0.85), scored(TOP, 0, 0.8)
    assert anchored([best, runner], [best, runner, top], TOP, clears, limit=2) == [best, top]


def test_no_anchor_when_the_answer_already_quotes_the_top_passage() -> None:
    best, other = scored(TOP, 0, 0.9), scored(SECOND, 0, 0.8)
    assert anchored([best, other], [best, other], TOP, clears, limit=3) == [best, other]


def test_no_anchor_when_the_top_passages_best_sentence_does_not_answer_on_its_own() -> None:
    best, weak = scored(SECOND, 0, 0.9), scored(TOP, 0, 0.3)
    assert anchored([best], [best, weak], TOP, clears, limit=3) == [best]


def test_no_anchor_from_another_document_than_the_best_picks() -> None:
    top_elsewhere = passage(1, "Another manual's opening sentence.", source="other.html")
    best, top = scored(SECOND, 0, 0.9), scored(top_elsewhere, 0, 0.8)
    assert anchored([best], [best, top], top_elsewhere, clears, limit=3) == [best]
