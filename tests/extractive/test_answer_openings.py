"""Sentence choice (pure): the answer opens with the sentence that answers, a sentence that
introduces a command keeps it, navigation bars and permalink glyphs never appear."""

from __future__ import annotations

import pytest

from answer_factories import passage
from citewise.extractive.compose import ScoredSentence, compose, leading
from citewise.extractive.outcome import window_of
from citewise.extractive.units import is_navigation, is_prose, join_marked, lead_in_end

LOCALES = [
    "Locales are listed in /etc/locale.gen.",
    "To change the default locale of the system, run the following command as root.",
    "# dpkg-reconfigure locales",
    "Then log out and log in again.",
]


def test_a_sentence_that_introduces_a_command_keeps_it() -> None:
    assert lead_in_end(LOCALES, 1) == 3
    assert lead_in_end(["Install it as follows.", "$ pip install foo", "Done."], 0) == 2
    assert lead_in_end(["The cache is cleared at startup.", "# rm -rf /var/cache"], 0) == 1


def test_the_answer_opens_with_the_sentence_that_answers() -> None:
    p = passage(1, " ".join(LOCALES))
    split = {1: LOCALES}
    best = ScoredSentence(p, 1, LOCALES[1], frozenset(), 0.8, 0.5, 0.8)
    runner_up = ScoredSentence(p, 0, LOCALES[0], frozenset(), 0.5, 0.3, 0.4)  # well below
    text = compose([best, runner_up], split, split, 0.8).text
    assert text.startswith("To change the default locale")
    assert "# dpkg-reconfigure locales [1]" in text  # the command it introduces comes along
    assert text.endswith("Locales are listed in /etc/locale.gen [1].")


def test_runs_of_neighbours_keep_their_order_and_a_lead_in_its_line() -> None:
    assert leading({0: "a.", 1: "b.", 3: "c.", 4: "d."}, 3) == [[3, 4], [0, 1]]
    assert leading({2: "Run:", 3: "x"}, 3) == [[2, 3]]  # a lead-in stays before its line


@pytest.mark.parametrize(
    ("line", "nav"),
    [
        ("Prev Up Home Next", True),
        ("« Previous topic 9.8 Iterators Next topic 9.10 Generator Expressions »", True),
        ("Back to top", True),
        ("Skip to main content", True),
        ("This section describes the next steps to take.", False),
        ("Set up the home directory first.", False),
    ],
)
def test_navigation_bars_are_told_apart_from_prose(line: str, nav: bool) -> None:
    assert is_navigation(line) is nav
    if nav:
        assert not is_prose(line, 1)


def test_permalink_glyphs_never_reach_the_answer_but_paragraph_signs_do() -> None:
    assert join_marked(["Installation¶ takes a minute."], 2) == "Installation takes a minute [2]."
    assert "¶ 12" in join_marked(["As ordered in ¶ 12 of the decree."], 2)


def test_the_closest_passage_window_stops_at_a_navigation_bar() -> None:
    sentences = ["Prev Up Home Next", "The default is 128.", "It grows without bound."]
    assert window_of(sentences, 1) == (1, 2)


def test_a_runner_up_nearly_as_good_before_the_best_keeps_the_reading_order() -> None:
    p = passage(1, " ".join(LOCALES))
    split = {1: LOCALES}
    best = ScoredSentence(p, 1, LOCALES[1], frozenset(), 0.8, 0.5, 0.8)
    close = ScoredSentence(p, 0, LOCALES[0], frozenset(), 0.7, 0.5, 0.7)
    assert compose([best, close], split, split, 0.8).text.startswith("Locales are listed")
