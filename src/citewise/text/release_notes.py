"""Documents that are release notes (pure); questions about versions are `question.asks`.

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


def is_release_notes(hit: Hit) -> bool:
    return bool(_RELEASE_NOTES.search(hit.title) or _RELEASE_NOTES.search(hit.section))
