from __future__ import annotations

from answer_factories import passage
from citewise.question.analysis import analyse
from citewise.question.specifics import share_in_passage, specifics


def test_specifics_are_the_names_identifiers_versions_and_numbers_a_question_names() -> None:
    found = specifics(analyse("How long did the MapReduce sort take on 4,000 machines in 2004?"))
    assert set(found) == {"mapreduce", "4,000", "2004"}


def test_a_version_number_is_one_specific_as_the_phrase_the_question_says() -> None:
    found = specifics(analyse("When was version 2.0 of the Debian constitution ratified?"))
    assert found == ("debian", "version 2.0")


def test_a_lone_digit_is_too_common_to_be_a_specific() -> None:
    assert specifics(analyse("What does section 2 say about leave?")) == ()


def test_a_passage_about_another_year_holds_none_of_the_asked_year() -> None:
    other_year = passage(1, "In 2019 every employee got 28 days of paid leave.")
    asked = specifics(analyse("How many days of paid leave did employees get in 2021?"))
    assert share_in_passage(asked, other_year) == 0.0
    same = specifics(analyse("How many days of paid leave did employees get in 2019?"))
    assert share_in_passage(same, other_year) == 1.0


def test_a_question_naming_nothing_specific_is_fully_held() -> None:
    p = passage(1, "Leave is booked in the portal.")
    assert share_in_passage((), p) == 1.0
