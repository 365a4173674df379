"""A natural-language query's keyword terms (pure)."""

from __future__ import annotations

import re

from citewise.text.words import STOPWORDS

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def query_terms(query: str) -> list[str]:
    """Lower-cased content words in order of first appearance, stopwords dropped."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(query.lower()):
        if word in STOPWORDS or (len(word) == 1 and not word.isdigit()):
            continue
        seen.setdefault(word, None)
    return list(seen)
