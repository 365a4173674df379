"""The specific things a question names (pure): proper names, identifiers, versions and
numbers ("ZooKeeper", "GFS", "2.0", "4,000", "2019", "version 2"). A passage that holds a
question's topic words but not these speaks of a neighbouring thing — another organisation,
another version, another year — and is a near miss rather than the answer."""

from __future__ import annotations

import re
from collections.abc import Iterable

from citewise.question.analysis import Analysis
from citewise.question.terms import mentions
from citewise.types import Passage

# a token holding a digit: "2019", "4,000", "1.2", "F1", "30-day" (one digit alone is too common
# to tell one thing from another: "section 2"), and "version 2", which is not
_NUMBERED = re.compile(r"(?<![\w.,-])(?=[\w.,]*\d)[A-Za-z]*\d[\w.,]*(?<![.,])")
_VERSION_WORD = re.compile(r"\b(?:version|v)\s*(\d+(?:\.\d+)*)\b", re.I)


def specifics(a: Analysis) -> tuple[str, ...]:
    """Lower-cased names, identifiers, versions and numbers the question names, each once."""
    numbered = [t for t in _NUMBERED.findall(a.question) if len(t) >= 2]
    spelled = [f"version {m.group(1)}" for m in _VERSION_WORD.finditer(a.question)]
    found = [*a.names, *a.key_terms, *a.versions, *numbered, *spelled]
    versioned = {s.removeprefix("version ") for s in spelled}
    # "version 1.2" is held as the phrase; its bare number is not a second specific
    return tuple(t for t in dict.fromkeys(x.lower() for x in found) if t not in versioned)


def share_in_passage(terms: Iterable[str], passage: Passage) -> float:
    """The share of `terms` the passage (text, heading, title or source) mentions; 1.0 when
    there are none."""
    wanted = list(terms)
    if not wanted:
        return 1.0
    return sum(mentions(passage, t) for t in wanted) / len(wanted)
