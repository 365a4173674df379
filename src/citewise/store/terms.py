"""Keyword terms as every backend indexes them (pure).

One tokenizer for all backends, so keyword search ranks alike whatever the server's locale:
lower case, accents removed, runs of letters and digits (what SQLite FTS5's `unicode61
remove_diacritics 2` tokenizer produces).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

_TOKEN = re.compile(r"[^\W_]+")


def fold(text: str) -> str:
    """Lower case without diacritics: "Café" → "cafe"."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


def index_tokens(text: str) -> list[str]:
    return _TOKEN.findall(fold(text))


def search_terms(terms: Sequence[str]) -> list[str]:
    """The distinct index tokens of the given terms, in order."""
    return list(dict.fromkeys(t for term in terms for t in index_tokens(term)))


def fts5_match(terms: Sequence[str]) -> str:
    """SQLite FTS5: the terms quoted and OR-ed, so no FTS syntax can leak from a query."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in search_terms(terms))
