"""How a sentence's form fits the answer type a question expects, and what is no sentence."""

from __future__ import annotations

from citewise.extractive.scoring import is_table_row, is_title, type_fit


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
    # a spreadsheet row of capitalised values states them: it is not a title
    assert not is_title("Name: Ada Quill · Role: Harbour Master")
    assert is_title("Harbour Master · Ada Quill")


def test_a_procedure_question_prefers_a_sentence_that_states_a_step() -> None:
    assert type_fit("procedure", "Add a line like this to your message's pseudo-headers.")
    assert type_fit("procedure", "To send a copy elsewhere, you can use a CC header.")
    assert type_fit("procedure", "You should mail the maintainer first.")
    assert not type_fit("procedure", "Sometimes it is necessary to send a copy elsewhere.")
