"""Keyword index values for PostgreSQL, made in Python by `store.terms` (pure).

The tsvector is written as a literal with explicit positions and weights (title A, section B,
text D), so the index holds exactly the tokens SQLite's FTS5 holds, whatever the server's
locale or text search configuration, and BM25 can weigh the three fields as FTS5 does.
"""

from __future__ import annotations

from collections.abc import Sequence

from citewise.store.terms import index_tokens, search_terms

# FTS5's bm25() weights for title, section and text (`SQLiteStore.keyword_search`)
FIELD_WEIGHTS = {"A": 4.0, "B": 2.0, "D": 1.0}
MAX_POSITION = 16383  # PostgreSQL's largest tsvector position


def tsvector_literal(title: str, section: str, text: str) -> tuple[str, int]:
    """(tsvector literal, token count) of one chunk's three fields."""
    positions: dict[str, list[str]] = {}
    pos = 0
    for weight, field in (("A", title), ("B", section), ("D", text)):
        for token in index_tokens(field):
            pos += 1
            positions.setdefault(token, []).append(f"{min(pos, MAX_POSITION)}{weight}")
    literal = " ".join(f"{_quote(t)}:{','.join(p)}" for t, p in positions.items())
    return literal, pos


def tsquery_literal(terms: Sequence[str], *, weight: str = "", op: str = " | ") -> str:
    """The terms' index tokens quoted and joined with `op` (OR by default), each restricted to
    `weight` ("B": section tokens) if given; "" when no token is left."""
    suffix = f":{weight}" if weight else ""
    return op.join(f"{_quote(t)}{suffix}" for t in search_terms(terms))


def _quote(token: str) -> str:
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"
