"""A natural-language query: its validation, and its keyword terms (pure)."""

from __future__ import annotations

import re

from citewise.errors import InputError
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


class ValidQuery(str):
    """A query `validate_query` returned: search does not validate it again."""

    __slots__ = ()


def validate_query(query: str, max_chars: int) -> ValidQuery:
    """The query with its whitespace collapsed; `InputError` when it is empty or longer than
    `max_chars`."""
    cleaned = " ".join(query.split())
    if not cleaned:
        raise InputError("the query is empty: type a question or some keywords")
    if len(cleaned) > max_chars:
        raise InputError(
            f"the query is {len(cleaned):,} characters long; the limit is {max_chars:,}."
            " Shorten it to the essential question."
        )
    return ValidQuery(cleaned)
