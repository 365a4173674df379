"""The three outcomes counted apart, on plain scored answers."""

from __future__ import annotations

from dataclasses import replace

from citewise.evaluation.answers import AnswerResult, score_answer
from citewise.evaluation.dataset import Gold
from citewise.evaluation.outcomes import outcome_figures
from citewise.types import Answer, Citation, Hit

NOT_FOUND = "The documents do not contain this information."


def _answer(text: str, passages: list[str], quote: str, kind: str = "answer") -> Answer:
    hits = tuple(
        Hit(i + 1, i, 1, "a.html", "a", None, None, "", 1.0, p, i) for i, p in enumerate(passages)
    )
    cites = (Citation(1, "a.html", None, "", 0, quote),) if quote else ()
    return Answer(text, "question", cites, hits, True, "high", "s", {}, answer_kind=kind)  # type: ignore[arg-type]


def _scored(kind: str, answer: Answer, want: list[str]) -> AnswerResult:
    return score_answer("x", kind, answer, want, [Gold("a.html", "q")], "", 1.0)


def test_a_refusal_with_the_fact_in_the_first_passage_counts_as_false_none() -> None:
    refused = _scored("lookup", _answer(NOT_FOUND, ["The limit is 4 MB."], "", "none"), ["4mb"])
    shown = _scored("lookup", _answer("The limit is 4 MB [1].", ["The limit is 4 MB."],
                                      "The limit is 4 MB.", "passage"), ["4mb"])  # fmt: skip
    row = outcome_figures([refused, shown])
    assert refused.kind == "none"
    assert (row["answers"], row["passages"], row["none"]) == (0.0, 1.0, 1.0)
    assert row["fact@1"] == 2.0 and row["false_none"] == 1.0


def test_a_labelled_passage_handles_an_unanswerable_question_and_a_stated_value_does_not() -> None:
    labelled = _scored("unanswerable", _answer("Up to 42 [1].", ["Up to 42."], "Up to 42.",
                                               "passage"), [])  # fmt: skip
    stated = _scored("unanswerable", _answer("It is 42 [1].", ["It is 42."], "It is 42."), [])
    refused = _scored("unanswerable", _answer(NOT_FOUND, ["x"], "", "none"), [])
    row = outcome_figures([labelled, stated, refused])
    assert row["handled"] == 2 / 3
    assert row["stated"] == 1.0


def test_quote_ok_asks_whether_the_quotes_of_right_answers_hold_the_fact() -> None:
    held = _scored("lookup", _answer("4 MB [1].", ["4 MB."], "The limit is 4 MB."), ["4mb"])
    elsewhere = _scored("lookup", _answer("4 MB [1].", ["4 MB."], "Limits apply."), ["4mb"])
    wrong = _scored("lookup", _answer("8 MB [1].", ["4 MB."], "8 MB."), ["4mb"])
    row = outcome_figures([held, elsewhere, wrong])
    assert row["quote_ok"] == 0.5
    assert replace(wrong, quotes_hold=True).must_contain == 0.0
