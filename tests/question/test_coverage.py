from __future__ import annotations

from answer_factories import passage
from citewise.question.coverage import coverage, rare_coverage


def test_coverage_is_the_share_of_the_question_words_a_passage_holds() -> None:
    p = passage(1, "The project leader is elected by the developers.")
    assert coverage("Who pays the project leader?", p) == 2 / 3


def test_a_word_no_passage_holds_weighs_more_than_one_every_passage_holds() -> None:
    leader = passage(1, "The project leader is elected every year by the developers.")
    others = [passage(n, "The project leader appoints delegates.") for n in (2, 3, 4)]
    question = "What salary does the project leader receive?"
    plain = coverage(question, leader)
    rare = rare_coverage(question, leader, [leader, *others])
    assert plain == 2 / 4  # project, leader of salary, project, leader, receive
    assert rare < plain


def test_rare_coverage_is_full_when_the_passage_holds_every_word() -> None:
    p = passage(1, "The project leader receives no salary.")
    assert rare_coverage("What salary does the project leader receive?", p, [p]) == 1.0
