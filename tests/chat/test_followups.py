"""Follow-ups in a conversation: what they inherit from the last turn (its subject and cited
documents) and how elliptical ones are rewritten against the previous ask — a new subject
in its place ("And for the Lakewood Ranch one?"), a new condition ("And if it wants …?"),
the topic a pronoun stands for."""

from __future__ import annotations

import pytest

from citewise.chat.conversation import inherited
from citewise.chat.ellipsis import named_subject, swap_name
from citewise.chat.memory import Turn, TurnSource
from citewise.chat.references import find_reference
from citewise.chat.rewrite import PriorTurn, rewrite, under_condition
from citewise.chat.topics import first_name, topic_of


def turn(question: str, *sources: str) -> Turn:
    cited = tuple(TurnSource(s, None, "", i) for i, s in enumerate(sources))
    return Turn("s1", question, "an answer", "question", sources=cited)


def test_a_question_leaning_on_the_last_turn_inherits_its_cited_documents() -> None:
    recent = [turn("What does the warranty cover?", "a.pdf", "a.pdf", "b.pdf")]
    prior = inherited("question", True, recent)  # elliptical, routed as a plain question
    assert prior is not None and prior.sources == ("a.pdf", "b.pdf")
    assert prior.question == "What does the warranty cover?"
    assert inherited("followup", False, recent) is not None


def test_a_question_that_stands_alone_inherits_nothing() -> None:
    recent = [turn("What does the warranty cover?", "a.pdf")]
    assert inherited("question", False, recent) is None
    assert inherited("followup", True, []) is None


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        (
            "What's the management fee in Devoto's agreement with Theriac of Littlestown?",
            "And for the Lakewood Ranch one?",
            "What's the management fee in Devoto's agreement with Lakewood Ranch?",
        ),
        (
            "What does Western Traction have to do to promote Blaw-Knox equipment?",
            "What about Blaw-Knox's side?",
            "What does Blaw-Knox have to do to promote Blaw-Knox equipment?",
        ),
        (
            "In the 2010 talk, how do you avoid XSS flaws?",
            "And CSRF?",
            "In the 2010 talk, how do you avoid CSRF flaws?",
        ),
    ],
)
def test_a_new_subject_takes_the_place_of_the_one_asked_about(
    previous: str, question: str, expected: str
) -> None:
    result = rewrite(question, [PriorTurn(previous, "an answer")], intent="followup")
    assert (result.query, result.changed) == (expected, True)


def test_and_with_a_bare_subject_is_a_what_about_but_not_a_question_of_its_own() -> None:
    ref = find_reference("And for the Lakewood Ranch one?")
    assert ref is not None and (ref.kind, ref.subject) == ("about", "the Lakewood Ranch one")
    for own in ("And how are they encrypted?", "And who has to carry the insurance?"):
        ref = find_reference(own)
        assert ref is None or ref.kind != "about"


def test_names_said_of_a_side_or_one_are_the_names() -> None:
    assert named_subject(["Lakewood", "Ranch", "one"]) == "Lakewood Ranch"
    assert named_subject(["Blaw-Knox's", "side"]) == "Blaw-Knox"
    assert named_subject(["least", "serious", "ones"]) is None
    assert named_subject(["functools.cache"]) is None
    assert swap_name("Ann", "What does the lessee pay?") == "What does the lessee pay?"


def test_a_condition_is_asked_of_the_previous_ask() -> None:
    previous = "What does Ceres Ventures pay Akai Studio for the initial term?"
    result = rewrite("And if it wants the extra six months?", [PriorTurn(previous, "x")])
    assert result.query == (
        "What does Ceres Ventures pay Akai Studio if Ceres Ventures wants the extra six months?"
    )
    assert under_condition("Who pays the rent?", "if they leave", "the lessee") == (
        "Who pays the rent if the lessee leave?"
    )


def test_the_topic_is_what_is_said_about_else_the_first_name() -> None:
    assert topic_of("What does the 2025 Top Ten talk say about Injection?") == "Injection"
    assert topic_of("What does Ceres Ventures pay Akai Studio for the initial term?") == (
        "Ceres Ventures"
    )
    assert first_name("What is Devoto's fee?") == "Devoto"
    assert first_name("what is the fee?") is None
    result = rewrite(
        "How do you prevent it?", [PriorTurn("What does the talk say about SQL injection?", "x")]
    )
    assert result.query == "How do you prevent SQL injection?"
