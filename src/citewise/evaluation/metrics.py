"""Retrieval metrics (pure functions over plain values)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from citewise.evaluation.dataset import Gold

_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"\w+|[^\w\s]")


def normalise(text: str) -> str:
    return _WS.sub(" ", text).strip().lower()


def contains_quote(text: str, quote: str, *, share: float = 0.6) -> bool:
    """True if `text` holds the quote verbatim (whitespace-normalised), or a contiguous run of
    at least `share` of its tokens (a quote split across two chunks still counts once)."""
    t, q = normalise(text), normalise(quote)
    if not q:
        return False
    if q in t:
        return True
    q_tokens, t_tokens = _TOKEN.findall(q), _TOKEN.findall(t)
    if not q_tokens:
        return False
    matcher = SequenceMatcher(None, q_tokens, t_tokens, autojunk=False)
    match = matcher.find_longest_match(0, len(q_tokens), 0, len(t_tokens))
    return match.size >= share * len(q_tokens)


@dataclass(frozen=True, slots=True)
class RetrievedPassage:
    source: str
    text: str


def first_rank(passages: Sequence[RetrievedPassage], gold: Sequence[Gold], *, quote: bool) -> int:
    """1-based rank of the first passage supporting any gold passage; 0 if none."""
    for rank, p in enumerate(passages, start=1):
        for g in gold:
            if p.source == g.file and (not quote or contains_quote(p.text, g.quote)):
                return rank
    return 0


def files_covered(passages: Sequence[RetrievedPassage], gold: Sequence[Gold], k: int) -> float:
    """Share of distinct gold files that appear among the top-k passages."""
    wanted = {g.file for g in gold}
    if not wanted:
        return 0.0
    seen = {p.source for p in passages[:k]}
    return len(wanted & seen) / len(wanted)


def all_files_rank(passages: Sequence[RetrievedPassage], gold: Sequence[Gold]) -> int:
    """Smallest k at which every gold file has appeared; 0 if never."""
    wanted = {g.file for g in gold}
    seen: set[str] = set()
    for rank, p in enumerate(passages, start=1):
        seen.add(p.source)
        if wanted <= seen:
            return rank
    return 0


def hit_at(rank: int, k: int) -> float:
    return 1.0 if 0 < rank <= k else 0.0


def reciprocal_rank(rank: int) -> float:
    return 1.0 / rank if rank > 0 else 0.0
