"""Version notes, as reference documentation writes them (pure): "Changed in version 3.10: …",
"New in Python 3.4", "Added in: v8.2.0". They describe a thing as it changed, not what it is
now, so they answer questions about versions or changes only (`RulePack.version_notes`)."""

from __future__ import annotations

import re

_VERSION_NOTE = re.compile(
    r"^(?:changed|new|deprecated|added|removed)(?: in| since|:)+ (?:(?:version|python) |v)?\d",
    re.I,
)


def is_version_note(sentence: str) -> bool:
    """Whether `sentence` opens as a version note."""
    return _VERSION_NOTE.match(sentence) is not None
