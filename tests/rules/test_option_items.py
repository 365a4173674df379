"""Command-line options documented as items of a list (pure), and the answers they give."""

from __future__ import annotations

from collections.abc import Callable

from answer_factories import passage
from citewise.extractive.definitions import defines
from citewise.rules.option_items import (
    option_item,
    option_item_start,
    prefer_option_items,
)
from citewise.rules.packs import CLI_OPTIONS
from fake_embedder import answerer

OPTIONS = (
    "Each option of the tool, such as the -k option, comes before the file names.\n"
    "-d --decompress: Force decompression. This option overrides the name the tool has.\n"
    "-k --keep: Keep (don't delete) input files during compression or decompression.\n"
    "-f --force: Force overwrite of output files. This option also breaks hard links."
)


def test_an_option_list_item_documents_the_option() -> None:
    text = "--leak-check=<no|full> [default: no]: When enabled, search for leaks.\n--leak=x: y"
    assert option_item("--leak-check", text) and option_item("--leak", text)
    assert not option_item("--lea", text) and not option_item("leak", text)
    assert not option_item("--full", "Run with --full to see more.")
    assert defines(("--leak-check",), text.splitlines()[0], False, "Options")
    assert not defines(("--leak-check",), "It runs if --leak-check=full is given.", False, "X")


def test_an_item_runs_from_its_option_to_the_next() -> None:
    sentences = ["Options:", "-k --keep: Keep files.", "They stay.", "--fast: Be fast.", "-9"]
    assert [option_item_start(sentences, i) for i in range(5)] == [None, 1, 1, 3, 4]


class _Fit:
    def __init__(self, text: str, score: float) -> None:
        self.text, self.score = text, score


def _clearing(threshold: float) -> Callable[[_Fit], bool]:
    return lambda x: x.score >= threshold


def test_the_options_own_item_is_preferred_when_it_clears_the_threshold() -> None:
    mention = _Fit("Options to time come before the command.", 0.9)
    item = _Fit("-o file, --output=file: Write the statistics to file.", 0.6)
    assert prefer_option_items("-o", [mention, item], _clearing(0.5)) == [item]
    assert prefer_option_items("-o", [mention, item], _clearing(0.7)) == [mention, item]
    assert prefer_option_items("output", [mention, item], _clearing(0.5)) == [mention, item]


def test_a_question_about_an_option_is_answered_by_its_item_alone() -> None:
    a, _ = answerer(rules=CLI_OPTIONS)
    r = a.answer("What does the -k option do?", [passage(1, OPTIONS)])
    assert r.text == (
        "-k --keep: Keep (don't delete) input files during compression or decompression [1]."
    )
