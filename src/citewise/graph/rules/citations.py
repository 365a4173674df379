"""A paper's reference list: not prose to read names from (authors in capitals, venue
fragments, page numbers), but the titles it cites, which name other documents."""

from __future__ import annotations

import re

from citewise.graph.model import ChunkText, entity_key
from citewise.types.documents import SECTION_SEPARATOR

_HEADING = re.compile(
    r"^(?:[\dIVX]+\.?\s*)?(?:references|bibliography|works\s+cited|literature(?:\s+cited)?"
    r"|citations|notes\s+and\s+references)$",
    re.I,
)
_ENTRY = re.compile(r"(?:^|\s)\[\d{1,3}\]\s+[A-Z]")
_SEGMENT = re.compile(r"(?<=[.?!])\s+(?=[A-Z\"“])")
_INITIALS = re.compile(r"\b[A-Z]\.")
MIN_WORDS = 3
MAX_WORDS = 25


def is_bibliography(chunk: ChunkText) -> bool:
    """A chunk under a "References" heading, or one holding three numbered entries."""
    last = chunk.section.rsplit(SECTION_SEPARATOR, 1)[-1].strip()
    return bool(_HEADING.match(last)) or len(_ENTRY.findall(chunk.text)) >= 3


def cited_titles(text: str) -> list[tuple[str, str]]:
    """(key, text) of each title-like piece of a reference list: the sentences of 3–25 words
    that are not a run of author initials ("Dean, J., and Ghemawat, S.")."""
    out: list[tuple[str, str]] = []
    for piece in _SEGMENT.split(re.sub(r"\[\d{1,3}\]", ". ", text)):
        title = piece.strip().strip(".").strip('"“”')
        words = title.split()
        if not MIN_WORDS <= len(words) <= MAX_WORDS or len(_INITIALS.findall(title)) >= 2:
            continue
        if sum(w.isupper() and len(w) > 1 for w in words) * 2 > len(words):
            continue  # authors set in capitals
        key = entity_key(title)
        if key:
            out.append((key, title))
    return out
