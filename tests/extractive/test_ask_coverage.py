from __future__ import annotations

from answer_factories import passage
from citewise.extractive.ask_coverage import ask_terms, unmentioned
from citewise.extractive.compose import ExtractiveResult
from citewise.extractive.outcome import unsure
from citewise.question.analysis import analyse

SALARY = "The Company shall pay the Executive an annual salary."


def test_the_ask_leaves_out_names_hyphenated_ones_too() -> None:
    terms = ask_terms("What annual sales volume did Blaw-Knox set for Western Traction?")
    assert list(terms.values()) == ["annual", "sales", "volume", "set"]


def test_a_closest_passage_says_which_asked_words_it_does_not_mention() -> None:
    salary = passage(1, SALARY)
    shown = ExtractiveResult(SALARY, (salary,), (0.5,), False, kind="passage")
    question = analyse("What is the Executive's annual bonus target?")
    assert unmentioned(question.question, [salary]) == ("bonus", "target")
    label = unsure(shown, question, "all-MiniLM-L6-v2", doubt=True).label
    assert label.endswith("does not mention \u201cbonus\u201d, \u201ctarget\u201d:")
    # a passage holding every asked word keeps the plain closest-passage label
    plain = unsure(shown, analyse("What is the annual salary?"), "x", doubt=True)
    assert plain.label == ""
