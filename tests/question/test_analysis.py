from __future__ import annotations

import pytest

from citewise.question.analysis import analyse, answer_type


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


def test_a_question_is_analysed_into_its_type_subject_and_parts() -> None:
    a = analyse("What is the default of max_workers, and how do I change the pool size?")
    assert a.answer_type == "value"
    assert a.key_terms == ("max_workers",)
    assert len(a.parts) == 2
    assert not a.asks_place and not a.asks_history


def test_a_definitional_question_carries_its_subject_and_type() -> None:
    a = analyse("Where does functools.lru_cache keep its results?")
    assert a.asks_place and a.answer_type == "place"
    d = analyse("What is a descriptor in Python?")
    assert d.subject == ("descriptor",) and d.answer_type == "definition"
    assert d.asks_history is False and analyse("What changed in 3.7?").asks_change


def test_names_spelt_as_code_are_required_and_acronyms_only_with_code_names() -> None:
    question = "Does the BSD licence or os.path.join need PYTHONMAXRECURSION?"
    assert set(analyse(question).required()) == {"os.path.join", "pythonmaxrecursion"}
    assert "bsd" in analyse(question).required(code_names=True)


def test_a_question_naming_only_acronyms_requires_its_version() -> None:
    assert analyse("What does JIT do in Python 3.13?").required() == ("3.13",)
