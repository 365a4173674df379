from __future__ import annotations

import numpy as np
import pytest

from citewise.extractive.clauses import by_key, clauses_of, unit_clauses


def test_a_semicolon_colon_or_dash_joins_clauses() -> None:
    leave = (
        "Employees receive 28 days of paid annual leave per year; unused days may be carried"
        " over to the next year."
    )
    assert clauses_of(leave) == [
        "Employees receive 28 days of paid annual leave per year;",
        "unused days may be carried over to the next year.",
    ]
    assert clauses_of("Python 3.10 added match statements: they compare a value to patterns.") == [
        "Python 3.10 added match statements:",
        "they compare a value to patterns.",
    ]
    assert clauses_of("The board meets monthly — usually on the first Tuesday of each month.") == [
        "The board meets monthly",
        "usually on the first Tuesday of each month.",
    ]


def test_a_comma_before_a_joining_word_opens_a_clause() -> None:
    assert clauses_of("The limit is 1,000 requests per hour, and more are rejected outright.") == [
        "The limit is 1,000 requests per hour,",
        "and more are rejected outright.",
    ]
    assert clauses_of("Meetings start at 10:30 every day, which leaves time for lunch.") == [
        "Meetings start at 10:30 every day,",
        "which leaves time for lunch.",
    ]


def test_numbers_times_versions_and_urls_are_never_split() -> None:
    for s in (
        "The default limit is 1,024 bytes per line of input.",
        "Doors open at 10:30 and close at 18:00 on weekdays.",
        "Version 3.10.2 fixed the bug reported in the tracker.",
        "The source is at https://example.org/docs:8080 for everyone.",
    ):
        assert clauses_of(s) == [s]


def test_an_abbreviation_a_short_list_or_a_short_lead_stays_whole() -> None:
    for s in (
        "Use a separator, e.g.: a comma or a semicolon between values.",
        "Supported formats are PDF, DOCX, and HTML files.",
        "Note: the service restarts every night at midnight.",
    ):
        assert clauses_of(s) == [s]


def test_quoted_text_bracketed_text_and_code_are_never_split() -> None:
    for s in (
        'Call it as "a; b; c: d" when the list is long and known.',
        "Write `x = 1; y = 2` when you need both values at once.",
        "for (i = 0; i < n; i++) { total += i; }",
        "The result [a list; possibly empty] is returned to the caller.",
    ):
        assert clauses_of(s) == [s]


def test_a_long_parenthetical_aside_is_a_clause_of_its_own() -> None:
    gpl = "The GPL (a copyleft licence from the FSF) requires that you share the source."
    assert clauses_of(gpl) == [gpl, "a copyleft licence from the FSF"]
    short = "The GPL (version 3) requires that you share the source."
    assert clauses_of(short) == [short]


def test_every_clause_is_a_stretch_of_the_sentence() -> None:
    s = "Leave accrues monthly; it may be carried over, but only up to five days (see the policy)."
    found = clauses_of(s)
    assert len(found) > 1
    assert all(s.find(c) >= 0 for c in found)


def test_a_unit_s_clauses_are_its_sentences_clauses_long_enough_to_stand() -> None:
    unit = ["The following are allowed:", "- reading files on the shared drive", "- \\n on POSIX"]
    kept = ["The following are allowed:", "- reading files on the shared drive"]
    assert unit_clauses(unit) == kept
    assert unit_clauses(["A plain sentence without any joints."]) == []
    assert unit_clauses([]) == []


def test_by_key_splits_the_embedded_clauses_back_by_candidate() -> None:
    vectors = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]], dtype=np.float32)
    out = by_key({(1, 0): ["a", "b"], (2, 3): ["c"]}, vectors)
    assert out[(1, 0)].texts == ("a", "b")
    assert out[(2, 3)].vectors.tolist() == [[pytest.approx(0.6), pytest.approx(0.8)]]
    assert out[(1, 0)].best(np.array([0.0, 1.0], dtype=np.float32)) == (1.0, "b")
