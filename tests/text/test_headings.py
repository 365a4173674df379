"""Headings of documentation pages: a section path's last heading, and whether a heading is the
entry for a name."""

from __future__ import annotations

from citewise.text.headings import heading_names, last_heading


def test_an_option_heading_names_the_option_and_its_aliases_only() -> None:
    assert last_heading("Command line > 1.1. Options > -m <module-name>") == "-m <module-name>"
    assert heading_names("-m <module-name>", "-m")
    assert heading_names("-c, --check", "--check") and heading_names("-c, --check", "-c")
    assert heading_names("--leak-check=<no|full>", "--leak-check")
    assert not heading_names("-OO", "-O") and not heading_names("--help-env", "--help")
    assert not heading_names("-M", "-m") and not heading_names("Modules", "-m")


def test_a_title_loses_its_chapter_number_before_it_is_compared() -> None:
    from citewise.text.headings import bare_title, title_starts

    assert bare_title("9. Massif: a heap profiler") == "Massif: a heap profiler"
    assert title_starts("10.2. DHAT: a dynamic heap analysis tool", "dhat")
    assert not title_starts("Using DHAT", "dhat")
