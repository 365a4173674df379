from __future__ import annotations

import pytest

from citewise.question.asks import asks_place
from citewise.rules.places import names_place
from fake_embedder import one_sentence_answer

STATISTICS = (
    "By default, time writes its statistics in the default format. "
    "The statistics of time are written on the standard error output."
)


@pytest.mark.parametrize(
    "question",
    [
        "Where does time write its statistics by default?",
        "where is the history saved?",
        "In which directory does venv put its scripts?",
        "Into what folder are wheels built?",
    ],
)
def test_questions_asking_where(question: str) -> None:
    assert asks_place(question)


@pytest.mark.parametrize(
    "question",
    ["What does time write by default?", "How is the directory created?", "Is it anywhere?"],
)
def test_questions_not_asking_where(question: str) -> None:
    assert not asks_place(question)


@pytest.mark.parametrize(
    "sentence",
    [
        "The history is saved into ~/.python_history.",
        "Temporary files go to /tmp unless TMPDIR is set.",
        "It is stored under %APPDATA%\\pip.",
        "Reports go to stderr.",
        "Output goes on the standard error output.",
        "The scripts live in the Scripts directory.",
        "Its value is $HOME unless overridden.",
    ],
)
def test_sentences_naming_a_place(sentence: str) -> None:
    assert names_place(sentence)


@pytest.mark.parametrize(
    "sentence", ["The default format differs.", "It returns a dict.", "Use and/or carefully."]
)
def test_sentences_naming_no_place(sentence: str) -> None:
    assert not names_place(sentence)


def test_a_where_question_is_answered_by_the_sentence_naming_the_place() -> None:
    where = one_sentence_answer("Where does time write its statistics by default?", STATISTICS)
    assert where == "The statistics of time are written on the standard error output [1]."
    how = one_sentence_answer("How does time write its statistics by default?", STATISTICS)
    assert how == "By default, time writes its statistics in the default format [1]."


def test_no_sentence_naming_a_place_leaves_the_answer_as_it_was() -> None:
    text = "By default, time writes its statistics in the default format. Its output differs."
    answer = one_sentence_answer("Where does time write its statistics by default?", text)
    assert answer == "By default, time writes its statistics in the default format [1]."
