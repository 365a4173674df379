"""Follow-up rewriting: topics from earlier questions, pronoun and ellipsis resolution, the
previous question for "simplify"/"tell me more", and the optional LLM with its fallback."""

from __future__ import annotations

import pytest

from citewise.chat.references import find_reference
from citewise.chat.rewrite import WINDOW, PriorTurn, elliptic, rewrite
from citewise.chat.topics import topic_of
from citewise.llm.base import LLMConnectionError
from citewise.testing.fakes import FakeLLM


def turns(*questions: str) -> list[PriorTurn]:
    return [PriorTurn(q, f"(answer to: {q})") for q in questions]


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("What does functools.lru_cache do?", "functools.lru_cache"),
        ("What does str.split() do when I call it without arguments?", "str.split()"),
        (
            "What is the difference between copy.copy() and copy.deepcopy()?",
            "copy.copy() and copy.deepcopy()",
        ),
        ("How do I use the `--dry-run` option?", "--dry-run"),
        ("What is a descriptor in Python?", "descriptor"),
        ("How do generators work in Python?", "generators"),
        ("How do I create a virtual environment?", "virtual environment"),
        ("What is the purpose of the with statement?", "with statement"),
        ("What is the difference between a process and a thread?", "process and thread"),
        ("Summarize the Sorting HOW TO.", "Sorting HOW TO"),
        ("How long are backups kept?", "backups"),
        ("How many listeners can be added for a single event?", "listeners"),
        ("How often are the encryption keys rotated?", "encryption keys"),
    ],
)
def test_topic_is_code_name_else_noun_phrase(question: str, topic: str) -> None:
    assert topic_of(question) == topic


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        (
            "What does functools.lru_cache do?",
            "What is its default size, and how do I make it unbounded?",
            "What is functools.lru_cache's default size, and how do I make it unbounded?",
        ),
        (
            "What does str.split() do when I call it without arguments?",
            "And if I give it a comma as the separator, are consecutive commas merged too?",
            "If I give str.split() a comma as the separator, are consecutive commas merged too?",
        ),
        (
            "How do generators work in Python?",
            "Can they be restarted?",
            "Can generators be restarted?",
        ),
        ("What is asyncio?", "Is it thread-safe?", "Is asyncio thread-safe?"),
        (
            "What does functools.lru_cache do?",
            "Does that decorator work on methods?",
            "Does functools.lru_cache work on methods?",
        ),
        (
            "What is the default maxsize of functools.lru_cache?",
            "What about functools.cache?",
            "What is the default maxsize of functools.cache?",
        ),
        (
            "What does str.split() do?",
            "and if I pass a comma?",
            "What does str.split() do if I pass a comma?",
        ),
        ("What does functools.lru_cache do?", "Why?", "Why? What does functools.lru_cache do?"),
        ("How long are backups kept?", "And how are they encrypted?", "How are backups encrypted?"),
    ],
)
def test_follow_ups_name_the_previous_topic(previous: str, question: str, expected: str) -> None:
    result = rewrite(question, turns(previous))
    assert (result.query, result.method, result.changed) == (expected, "heuristic", True)


@pytest.mark.parametrize(
    "question", ["Simplify that.", "Tell me more.", "explain it like I'm five"]
)
def test_simplify_and_deepen_search_with_the_previous_question(question: str) -> None:
    result = rewrite(question, turns("What is asyncio?", "What is a descriptor in Python?"))
    assert (result.query, result.method) == ("What is a descriptor in Python?", "previous")
    assert result.topic == "descriptor"


def test_previous_rewritten_query_carries_the_topic_forward() -> None:
    history = [
        PriorTurn("What does functools.lru_cache do?", "A memoizing decorator."),
        PriorTurn(
            "Is it thread-safe?", "Yes.", rewritten_query="Is functools.lru_cache thread-safe?"
        ),
    ]
    assert rewrite("Simplify that.", history).query == "Is functools.lru_cache thread-safe?"
    assert rewrite("How do I clear it?", history).query == "How do I clear functools.lru_cache?"


def test_standalone_questions_and_empty_history_are_left_alone() -> None:
    assert rewrite("What is its default?", []).method == "none"
    result = rewrite("How do I create a virtual environment?", turns("What is asyncio?"))
    assert (result.query, result.changed, result.method) == (
        "How do I create a virtual environment?",
        False,
        "none",
    )


def test_only_the_last_turns_are_used() -> None:
    history = turns("What does functools.lru_cache do?") + turns(*(["Hmm"] * WINDOW))
    assert rewrite("What is its default size?", history).topic == "hmm"


def test_llm_rewrite_is_used_when_valid() -> None:
    llm = FakeLLM("Standalone query: What is the default maxsize of functools.lru_cache?")
    result = rewrite(
        "What is its default size?",
        turns("What does functools.lru_cache do?"),
        summary="The user is learning about caching decorators.",
        llm=llm,
    )
    assert (result.query, result.method) == (
        "What is the default maxsize of functools.lru_cache?",
        "llm",
    )
    assert "caching decorators" in llm.prompts[0] and "functools.lru_cache" in llm.prompts[0]


@pytest.mark.parametrize(
    "reply", [LLMConnectionError("refused"), "", "x" * 500, "Sure!\nHere is the query:\nfoo"]
)
def test_llm_failure_falls_back_to_the_heuristic(reply: str | Exception) -> None:
    result = rewrite("Is it thread-safe?", turns("What is asyncio?"), llm=FakeLLM(reply))
    assert (result.query, result.method) == ("Is asyncio thread-safe?", "heuristic")
    assert result.note.startswith("llm rewrite")


def test_llm_is_not_asked_for_standalone_questions_or_simplify() -> None:
    llm = FakeLLM("should not be used")
    rewrite("How do I create a virtual environment?", turns("What is asyncio?"), llm=llm)
    rewrite("Simplify that.", turns("What is asyncio?"), llm=llm)
    assert llm.prompts == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("What is its default size, and how do I make it unbounded?", "possessive"),
        ("And if I pass it a comma?", "pronoun"),
        ("and if I pass a comma?", "continuation"),
        ("what about asyncio.gather?", "about"),
        ("why?", "ellipsis"),
        ("Why is that?", "demonstrative"),
        ("Does that decorator work on methods?", "demonstrative"),
    ],
)
def test_references_to_the_previous_turn_are_found(text: str, kind: str) -> None:
    ref = find_reference(text)
    assert ref is not None and ref.kind == kind


@pytest.mark.parametrize(
    "text",
    [
        "Is it safe to remove entries from a dict while iterating over it?",
        "If I group records by a key, do I need to sort them first?",
        "Is there a function that flattens a list?",
        "How long does it take to build the index?",
        "What does functools.lru_cache do?",
    ],
)
def test_self_contained_questions_do_not_refer_back(text: str) -> None:
    assert find_reference(text) is None


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        (
            "What are the most serious breaches that allow termination?",
            "What about the least serious ones?",
            "What are the least serious breaches that allow termination?",
        ),
        (
            "Which breaches are the most serious?",
            "What about the least serious ones?",
            "Which breaches are the least serious?",
        ),
        ("What are the blue cars for?", "What about the red ones?", "What are the red cars for?"),
        (
            "What insurance must the Distributor carry?",
            "What about the Supplier?",
            "What insurance must the Supplier carry?",
        ),
    ],
)
def test_what_about_follow_ups_are_rewritten_against_the_previous_ask(
    previous: str, question: str, expected: str
) -> None:
    result = rewrite(question, turns(previous))
    assert (result.query, result.method) == (expected, "heuristic")


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        (
            "What must I keep when I redistribute BSD-licensed source code?",
            "What about binaries?",
            "What must I keep when I redistribute BSD-licensed binaries?",
        ),
        (
            "What is the warranty period for hardware?",
            "What about software?",
            "What is the warranty period for software?",
        ),
    ],
)
def test_what_about_a_plain_noun_takes_the_place_of_the_one_the_ask_ended_on(
    previous: str, question: str, expected: str
) -> None:
    assert rewrite(question, turns(previous)).query == expected


def test_a_demonstrative_with_a_noun_finds_the_phrase_the_last_turn_used() -> None:
    history = [
        PriorTurn(
            "Where does the server keep its write-ahead log?",
            "In the directory pg_wal under the data directory, as a set of segment files.",
        )
    ]
    result = rewrite("How big is each of those files?", history)
    assert result.query == "How big is each of the segment files (write-ahead log)?"
    home = rewrite("Is that directory required?", turns("Where are users' home directories kept?"))
    assert home.query.startswith("Is the home directory required")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Can I add my own attribution notices to it?", "pronoun"),
        ("Is there a limit on how long its members can serve?", "possessive"),
        ("Is there a price to pay for it?", "pronoun"),
    ],
)
def test_a_pronoun_ending_the_question_points_back(question: str, kind: str) -> None:
    ref = find_reference(question)
    assert ref is not None and ref.kind == kind


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("Who appoints the delegates in the Debian project?", "delegates"),
        ("Where does the server keep its write-ahead log?", "write-ahead log"),
        ("What chunk size did the Google File System choose?", "chunk size"),
        ("What was said about marking sqlite at the TSC meeting?", "marking sqlite"),
    ],
)
def test_topic_of_questions_asked_with_who_which_and_where(question: str, topic: str) -> None:
    assert topic_of(question) == topic


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        (
            "What does the warranty cover for the customers?",
            "What isn't covered?",
            "What isn't covered? What does the warranty cover for the customers?",
        ),
        (
            "When can the company fire the executive for cause?",
            "What about the least serious ones, how long does he get to fix them?",
            "What about the least serious ones, how long does he get to fix them? "
            "When can the company fire the executive for cause?",
        ),
    ],
)
def test_elliptical_questions_are_searched_with_the_last_one(
    previous: str, question: str, expected: str
) -> None:
    assert elliptic(question, previous) is not None
    assert rewrite(question, turns(previous), intent="question").query == expected


def test_a_short_question_on_another_matter_stands_alone() -> None:
    assert elliptic("What is the rent?", "What is the notice period?") is None
    alone = rewrite("What is the rent?", turns("What is the notice period?"), intent="question")
    assert (alone.query, alone.changed) == ("What is the rent?", False)
