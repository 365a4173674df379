"""The pure measures candidate sentences are scored with."""

from __future__ import annotations

from answer_factories import passage
from citewise.extractive.candidates import CandidateSentence, lexical, stems_of, term_weights


def _cand(text: str) -> CandidateSentence:
    return CandidateSentence(passage(1, text), 0, text, 1.0, frozenset(stems_of(text)))


def test_a_command_line_option_is_a_term_of_its_own() -> None:
    assert {"-c", "--inspect"} <= stems_of("Run it with -c command or --inspect.")
    assert "-line" not in stems_of("The command-line interface.")
    runs = _cand("When called with -c command, it executes the statement given as command.")
    note = _cand("The interface runs each command given to it.")
    weights = term_weights("What does the -c command line option do?", [runs, note])
    assert "-c" in weights
    assert lexical(weights, runs) > lexical(weights, note)
