"""Headings and titles of documentation pages (pure): a section path's last heading, whether a
heading is the entry for a name, a title without its chapter number."""

from __future__ import annotations

import re

from citewise.types import SECTION_SEPARATOR


def last_heading(section: str) -> str:
    """The last heading of a section path: "1.1. Command line > -m <module-name>" →
    "-m <module-name>" (a heading may itself hold ">")."""
    return section.rsplit(SECTION_SEPARATOR, 1)[-1].strip()


def heading_names(heading: str, name: str) -> bool:
    """Whether `heading` is the entry for `name`: it starts with `name`, or lists it among
    comma-separated aliases, and `name` is not the start of a longer one ("-O" is not
    "-OO", "--help" not "--help-env"). Case-sensitive: "-b" and "-B" are different options."""
    return any(
        alias.startswith(name) and not re.match(r"[\w-]", alias[len(name) : len(name) + 1])
        for alias in (a.strip() for a in heading.split(","))
    )


def bare_title(title: str) -> str:
    """A title without its chapter number: "9. Massif: a heap profiler" → "Massif: …"."""
    return re.sub(r"^\d+(?:\.\d+)*\.?\s+", "", title)


def title_starts(title: str, prefix: str) -> bool:
    """Whether `title` starts with `prefix` (case-insensitive), after a chapter number if any."""
    return bare_title(title).lower().startswith(prefix.lower())
