"""The query router: kinds from the question's shape, the summary target, the
parts of multi-part and relationship questions, and the optional LLM."""

from __future__ import annotations

import pytest

from citewise.chat.query_router import (
    QueryRouter,
    sub_questions,
    summary_target,
)
from citewise.llm.base import LLMTimeoutError
from citewise.testing.fakes import FakeLLM


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is the default rel_tol of math.isclose()?", "simple"),
        ("Does heapq.heappop() return the smallest or the largest item?", "simple"),
        ("How do I create a virtual environment?", "simple"),
        ("Summarize the Sorting HOW TO.", "summarize"),
        ("Can you give me a brief overview of the installation guide?", "summarize"),
        ("tl;dr of the security policy", "summarize"),
        ("What is the onboarding handbook about?", "summarize"),
        ("How does asyncio relate to threading?", "relationship"),
        ("What is the difference between copy.copy() and copy.deepcopy()?", "relationship"),
        ("Compare pickle with JSON", "relationship"),
        ("REST vs GraphQL", "relationship"),
        ("How do str() and repr() differ?", "relationship"),
        ("When should I use a tuple instead of a list?", "relationship"),
        ("What command creates a virtual environment, and how do I activate it?", "complex"),
        ("What is a context manager and how do I write one?", "complex"),
        ("Which port is used? Can I change it?", "complex"),
        ("Why don't my log messages show up?", "complex"),
        ("How does the garbage collector work?", "complex"),
    ],
)
def test_kind_follows_the_question_shape(question: str, kind: str) -> None:
    assert QueryRouter().plan(question).kind == kind


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("the page for the graphlib module", "graphlib module"),
        ("the documentation page for the zoneinfo module.", "zoneinfo module"),
        ("the Sorting HOW TO", "Sorting HOW TO"),
        ("Q3 board report", "Q3 board report"),
        ("it", None),
        ("this document", None),
        ("", None),
    ],
)
def test_summary_target_is_the_named_document(text: str, target: str | None) -> None:
    assert summary_target(text) == target


def test_summary_plan_carries_its_target() -> None:
    plan = QueryRouter().plan("Please summarize the page for the graphlib module.")
    assert (plan.kind, plan.target) == ("summarize", "graphlib module")


def test_relationship_parts_are_the_two_sides() -> None:
    plan = QueryRouter().plan("What is the difference between copy.copy() and copy.deepcopy()?")
    assert plan.parts == ("copy.copy()", "copy.deepcopy()")
    assert QueryRouter().plan("How does asyncio relate to threading?").parts == (
        "asyncio",
        "threading",
    )


def test_sub_questions_split_only_separate_asks() -> None:
    assert sub_questions("What is X, and how do I configure it?") == (
        "What is X,",
        "how do I configure it?",
    )
    assert sub_questions("Is it fast? Is it safe?") == ("Is it fast?", "Is it safe?")
    assert sub_questions("What happens when I append to a deque that is full and bounded?") == ()


def test_follow_ups_are_conversational_only_with_history() -> None:
    router = QueryRouter()
    assert router.plan("What is its default size?", has_history=True).kind == "conversational"
    assert router.plan("Tell me more.", has_history=True).kind == "conversational"
    assert router.plan("What is its default size?").kind == "simple"
    assert router.plan("go on", intent="deepen").kind == "conversational"


def test_llm_settles_simple_versus_complex() -> None:
    llm = FakeLLM('{"kind": "complex", "parts": ["What is A?", "What is B?"]}')
    plan = QueryRouter(llm=llm, llm_min_words=5).plan("Tell me about A in the context of B")
    assert (plan.kind, plan.method, plan.parts) == ("complex", "llm", ("What is A?", "What is B?"))


def test_llm_is_not_asked_about_summaries_or_relationships() -> None:
    llm = FakeLLM('{"kind": "simple"}')
    router = QueryRouter(llm=llm)
    assert router.plan("Summarize the user guide").kind == "summarize"
    assert router.plan("Compare pickle with JSON").kind == "relationship"
    assert llm.calls == []


def test_short_questions_are_planned_without_the_llm() -> None:
    llm = FakeLLM('{"kind": "complex"}')
    plan = QueryRouter(llm=llm).plan("What port does the server use?")
    assert (plan.kind, plan.method, llm.calls) == ("simple", "heuristic", [])


@pytest.mark.parametrize(
    "reply", [LLMTimeoutError("read timed out"), "not json", '{"kind": "enormous"}']
)
def test_llm_failure_keeps_the_heuristic_plan(reply: str | Exception) -> None:
    plan = QueryRouter(llm=FakeLLM(reply), llm_min_words=3).plan("What port does the server use?")
    assert (plan.kind, plan.method) == ("simple", "heuristic")
    assert "llm" in plan.reason


def test_a_carried_analysis_gives_the_parts_of_a_question() -> None:
    from dataclasses import replace

    from citewise.question import analyse

    question = "What is the size of the pool"
    assert QueryRouter().plan(question).parts == ()
    carried = replace(analyse(question), parts=("What is the size?", "Of which pool?"))
    plan = QueryRouter().plan(question, analysis=carried)
    assert (plan.kind, plan.parts) == ("complex", carried.parts)
