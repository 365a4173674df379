"""Definitional questions and the sentences that answer them (pure)."""

from __future__ import annotations

from citewise.answer.definitions import defines, definition_subject, promote_definitions
from citewise.answer.sentences import stem
from citewise.types import Hit


def test_definitional_questions_name_their_subject() -> None:
    assert definition_subject("What is a descriptor in Python?") == ("descriptor",)
    assert definition_subject("What does functools.lru_cache do?")[-1] == stem("cache")
    assert definition_subject("How do generators work?") == ("generator",)
    assert definition_subject("Why is my build slow?") == ()
    assert definition_subject("What is the default timeout of the pool in seconds?") == ()


def test_a_sentence_that_opens_with_the_subject_and_a_defining_verb_defines_it() -> None:
    subject = ("descriptor",)
    assert defines(subject, "In general, a descriptor is an attribute value.", 3, "Intro")
    assert defines(subject, "Descriptors are a powerful protocol.", 2, "Intro")
    assert not defines(subject, "Understanding descriptors is a key to Python.", 2, "Intro")
    assert not defines(subject, "Learning about descriptors helps.", 1, "Intro")
    assert defines(subject, "Any object which defines __get__().", 0, "Glossary > descriptor")
    assert not defines(subject, "Any object which defines __get__().", 1, "Glossary > descriptor")


def test_a_definition_list_defines_and_a_passive_use_does_not() -> None:
    subject = ("enumeration",)
    listed = "An enumeration: - is a set of symbolic names bound to unique values"
    assert defines(subject, listed, 2, "enum")
    assert not defines(subject, "Enumerations are created by using class syntax:", 3, "enum")
    assert defines(subject, "Enumerations are called enums for short.", 3, "enum")


def _hit(rank: int, title: str, section: str, score: float) -> Hit:
    return Hit(rank, rank, rank, f"{rank}.html", title, None, None, section, score, "t", rank)


def test_pages_about_the_subject_move_up_for_definitional_questions() -> None:
    hits = [
        _hit(1, "What's New In Python 3.8", "What's New > Improved Modules > logging", 2.0),
        _hit(2, "Developing with asyncio", "Developing with asyncio", 1.9),
        _hit(3, "asyncio — Asynchronous I/O", "asyncio — Asynchronous I/O", 1.7),
    ]
    promoted = promote_definitions(hits, ("asyncio",))
    assert [h.rank for h in promoted] == [1, 2, 3]
    assert promoted[0].title.startswith("asyncio")
    assert promote_definitions(hits, ()) == hits
