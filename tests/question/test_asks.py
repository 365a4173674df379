"""Which questions are about versions or changes (they keep release notes and version notes)."""

from __future__ import annotations

import pytest

from citewise.question.asks import asks_about_change, asks_about_history


@pytest.mark.parametrize(
    "question",
    [
        "When was the walrus operator added?",
        "Which functions were added in Python 3.12?",
        "What was removed from the standard library?",
        "Was asyncio.TaskGroup introduced in 3.11?",
        "What changed in dictionaries?",
        "Is imp deprecated?",
    ],
)
def test_questions_about_versions_or_changes(question: str) -> None:
    assert asks_about_history(question)
    assert asks_about_change(question)


@pytest.mark.parametrize(
    "question",
    [
        "Do Python dictionaries remember the order in which keys were added?",
        "How do I create a temporary directory that is removed automatically?",
        "How many listeners can be added for a single event by default?",
        "Which items are removed by list.clear()?",
    ],
)
def test_added_or_removed_things_are_not_about_versions(question: str) -> None:
    assert not asks_about_history(question)
    assert not asks_about_change(question)


def test_a_version_number_is_about_versions_but_not_a_change() -> None:
    assert asks_about_history("What is pickle.DEFAULT_PROTOCOL in Python 3.11?")
    assert not asks_about_change("What is pickle.DEFAULT_PROTOCOL in Python 3.11?")
