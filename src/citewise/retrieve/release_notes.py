"""Questions about versions or changes, and documents that are release notes (pure).

Release notes mention nearly everything, often as it was years ago ("dictionaries iterate in
arbitrary order"). Unless a question is about versions or changes, the reference page that
describes the thing as it is answers better: search scores release notes lower, and the
extractive answerer prefers current statements over "Changed in version …" notes.
"""

from __future__ import annotations

import re

from citewise.types import Hit

_RELEASE_NOTES = re.compile(
    r"\b(?:what[’']?s new|release notes?|changelog|change ?log|changes in|news)\b", re.I
)
# "added", "removed" and "introduced" are about versions only when a version or the language
# follows or the question asks when: "keys were added", "a directory that is removed
# automatically" and "listeners added for an event" are not
_FEATURE_CHANGE = (
    r"(?:added|removed|introduced)\s+(?:in|to|from)\s+"
    r"(?:python|version|v?\d|the (?:standard library|language))"
    r"|^\W*when\b.*\b(?:added|removed|introduced)"
)
# about versions at all: a version number is enough ("How much faster is 3.11 than 3.10?")
_ASKS_HISTORY = re.compile(
    r"\b(?:versions?|new in|changed|changes|release[sd]?|deprecated|history|since|\d+\.\d+"
    rf"|{_FEATURE_CHANGE})\b",
    re.I,
)
# about a change, not merely naming a version ("… in Python 3.11?")
_ASKS_CHANGE = re.compile(
    r"\b(?:changed?|changes|new in|deprecated|history|since when|which versions?|"
    rf"what versions?|when was|{_FEATURE_CHANGE})\b",
    re.I,
)


def asks_about_history(question: str) -> bool:
    return bool(_ASKS_HISTORY.search(question))


def asks_about_change(question: str) -> bool:
    return bool(_ASKS_CHANGE.search(question))


def is_release_notes(hit: Hit) -> bool:
    return bool(_RELEASE_NOTES.search(hit.title) or _RELEASE_NOTES.search(hit.section))
