from __future__ import annotations

from answer_factories import passage
from citewise.question.coverage import coverage


def test_coverage_is_the_share_of_the_question_words_a_passage_holds() -> None:
    p = passage(1, "The project leader is elected by the developers.")
    assert coverage("Who pays the project leader?", p) == 2 / 3
