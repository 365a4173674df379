"""The one rule for collection names (and names made like them, such as chat ids): they
also name folders (kept uploads), so only letters, digits, '-', '_' and '.', 1-64 of them."""

from __future__ import annotations

MAX_NAME_CHARS = 64
NAME_RULE = "letters, digits, '-', '_' or '.' (1-64 chars)"


def valid_collection_name(name: str) -> bool:
    return 0 < len(name) <= MAX_NAME_CHARS and all(c.isalnum() or c in "-_." for c in name)
