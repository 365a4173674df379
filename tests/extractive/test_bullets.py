"""A bullet or a cell answers with its title, like a sentence (slide decks)."""

from __future__ import annotations

from answer_factories import passage
from citewise.extractive.bullets import (
    ask_stems,
    is_short_line,
    labelled_unit,
    titled,
    titled_unit,
)
from fake_embedder import answerer

SLIDE = passage(
    1,
    "- 150–300 ms, chosen at random\n- restarts on every heartbeat",
    source="raft-talk.pptx",
    section="Raft > Election timeout",
)


def test_a_bullet_reads_after_its_title() -> None:
    assert titled("- 150–300 ms, chosen at random", "Raft > Election timeout") == (
        "Election timeout: 150–300 ms, chosen at random"
    )
    assert titled("Election timeout is random", "Raft > Election timeout") is None
    assert titled("- 3 replicas", "") is None
    assert titled("1", "Maintainer scripts idempotency") is None  # a list's numbering
    assert titled("Waiver.", "Statement of Purpose") is None  # a heading inside the text


def test_only_short_lines_that_speak_of_the_ask_are_framed() -> None:
    assert is_short_line("- 3 replicas") and not is_short_line("How many replicas?")
    assert not is_short_line("See the reference for the default level and the events tracked.")
    asked = {"election", "timeout"}
    framed = titled_unit("- 150–300 ms, chosen at random", "Raft > Election timeout", asked, 4)
    assert framed == "Election timeout: 150–300 ms, chosen at random"
    assert titled_unit("- 150–300 ms", "Raft > Log compaction", asked, 4) is None


def test_a_bullet_under_its_title_is_the_answer_shown_with_the_title() -> None:
    a, _ = answerer(max_sentences=1)
    r = a.answer("What is the election timeout in Raft?", [SLIDE])
    assert not r.abstained
    assert r.text.startswith("Election timeout: 150–300 ms, chosen at random")


def test_a_signature_line_or_a_name_alone_is_no_titled_answer() -> None:
    assert not is_short_line("/s/ Massoud Safavi")
    asked = ask_stems("What is Massoud Safavi's non-compete with EFJ?")
    assert "massoud" not in asked and asked & {"compete", "non"}
    assert titled_unit("Massoud Safavi", "EMPLOYEE", asked, 2) is None


def test_a_label_with_its_value_answers_when_it_speaks_of_the_ask() -> None:
    line = "Formula: (Max Incidence Rate % * 1000) + (Max Coverage % * 100) = Risk Score"
    assert labelled_unit(line, ask_stems("What formula gives the risk score?"), 4) == line
    assert labelled_unit(line, ask_stems("Who sponsored the talk?"), 4) is None
    assert labelled_unit("x = compute(a, b) + 1", {"compute"}, 4) is None  # code, no label
    cwes = titled_unit(
        "- 2025 = 686 CWEs", "CWEs (968ish)", ask_stems("How many CWEs were mapped in 2025?"), 4
    )
    assert cwes == "CWEs (968ish): 2025 = 686 CWEs"
