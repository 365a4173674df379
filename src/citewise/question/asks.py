"""What a question asks about, read from its surface (pure): a place ("Where …?"), versions
or changes ("What changed in 3.7?")."""

from __future__ import annotations

import re

_ASKS_PLACE = re.compile(
    r"^\W*where\b|\b(?:in|into|to)\s+(?:which|what)\s+(?:directory|folder|file|location|path)\b",
    re.I,
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


def asks_place(question: str) -> bool:
    """ "Where …?", "In which directory …?": the answer says where."""
    return bool(_ASKS_PLACE.search(question))
