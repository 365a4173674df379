from __future__ import annotations

import pytest

from citewise.extractive.scoring import is_table_row, is_title, type_fit
from citewise.question.analysis import analyse_question, answer_type, required_terms


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many members does the technical committee have?", "number"),
        ("What is the default block size?", "value"),
        ("Which licence covers the documentation?", "value"),
        ("Is a developer allowed to vote twice?", "yes_no"),
        ("Can the licensee sublicense the work?", "yes_no"),
        ("What is a descriptor?", "definition"),
        ("How do I report a bug?", "procedure"),
        ("Where are configuration files kept?", "place"),
        ("When was the constitution ratified?", "time"),
        ("Why must packages not modify another package's files?", "reason"),
        ("Who wrote the Debian manifesto?", "person"),
        ("What are the duties of the project leader?", "list"),
        ("What is the difference between pickle and json?", "comparison"),
    ],
)
def test_the_expected_answer_type_is_read_from_the_question(question: str, kind: str) -> None:
    assert answer_type(question) == kind


def test_a_question_is_analysed_once_into_its_type_subject_and_parts() -> None:
    a = analyse_question("What is the default of max_workers, and how do I change the pool size?")
    assert a.answer_type == "value"
    assert a.key_terms == ("max_workers",)
    assert len(a.parts) == 2


def test_a_sentence_fits_the_answer_type_by_its_form() -> None:
    assert type_fit("value", "The default is 10.")
    assert not type_fit("value", "The buffer holds the output of the process for later.")
    assert type_fit("number", "The committee has eight members.")
    assert type_fit("yes_no", "A developer may not vote twice.")
    assert type_fit("time", "It was ratified in 1998.")
    assert type_fit("reason", "This is required because files would clash.")
    assert type_fit("person", "It was written by Ian Murdock in 1993.")
    assert not type_fit("definition", "A descriptor is an object.")  # no telling form


def test_a_flattened_table_row_is_told_from_a_sentence() -> None:
    assert is_table_row("Column Type Description specific_name sql_identifier routine_name")
    assert is_table_row("| name | type | default |")
    assert not is_table_row("The default value is four megabytes (4MB).")


def test_a_title_left_in_the_text_is_told_from_a_sentence() -> None:
    assert is_title("The Debian Linux Manifesto")
    assert is_title("Appendix The Debian Manifesto")
    assert not is_title("The Debian Linux Manifesto was written by Ian Murdock.")
    assert not is_title("the manifesto was written in 1993")


def test_names_spelt_as_code_are_required_and_acronyms_only_with_code_names() -> None:
    question = "Does the BSD licence or os.path.join need PYTHONMAXRECURSION?"
    assert set(required_terms(question)) == {"os.path.join", "pythonmaxrecursion"}
    assert "bsd" in required_terms(question, code_names=True)


def test_a_procedure_question_prefers_a_sentence_that_states_a_step() -> None:
    from citewise.extractive.scoring import type_fit

    assert type_fit("procedure", "Add a line like this to your message's pseudo-headers.")
    assert type_fit("procedure", "To send a copy elsewhere, you can use a CC header.")
    assert type_fit("procedure", "You should mail the maintainer first.")
    assert not type_fit("procedure", "Sometimes it is necessary to send a copy elsewhere.")
