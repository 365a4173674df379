"""The stand-in figures' count of wrongly cited sentences that reached the user
(`benchmarks/standin_figures.py`)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def figures() -> ModuleType:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        return importlib.import_module("standin_figures")
    finally:
        sys.path.pop(0)


REPLY = "So heap[0] is always the smallest item [7]."


def test_code_in_brackets_is_not_a_citation(figures: ModuleType) -> None:
    repaired = "So heap[0] is always the smallest item [1]."
    assert not figures._kept_citing_elsewhere(REPLY, repaired, {1: True})


def test_a_sentence_shown_citing_a_passage_without_gold_counts(figures: ModuleType) -> None:
    kept = "So heap[0] is always the smallest item [2]."
    assert figures._kept_citing_elsewhere(REPLY, kept, {1: True, 2: False})
    assert figures._kept_citing_elsewhere(REPLY, "So heap[0] is always the smallest item [1, 2].",
                                          {1: True, 2: False})  # fmt: skip


def test_a_sentence_shown_with_a_clause_cut_still_counts(figures: ModuleType) -> None:
    reply = "The default is 12s; higher values are used (up to 60s) [7]."
    assert figures._kept_citing_elsewhere(reply, "The default is 12s; higher values are used [2].",
                                          {2: False})  # fmt: skip
    assert not figures._kept_citing_elsewhere(reply, "Something else entirely is said [2].",
                                              {2: False})  # fmt: skip
