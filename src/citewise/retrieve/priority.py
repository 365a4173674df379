"""Searching several collections in priority order (a client's own, then the global one):
each collection is searched on its own, scoped inside the store's SQL, and the lists are
merged with the earlier collection first and each passage kept once."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from citewise.types import Hit, SearchFilter, SearchResult


def passage_key(hit: Hit) -> str:
    """The same passage ingested into two collections has the same key."""
    text = re.sub(r"\s+", " ", hit.text).strip().casefold()
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def merge_by_priority(ranked: Sequence[Sequence[Hit]], k: int) -> list[Hit]:
    """At most `k` hits: the first list's in their order, then the next list's, …; a passage
    already taken from an earlier list is skipped. Ranks are renumbered from 1."""
    merged: list[Hit] = []
    seen: set[str] = set()
    for hits in ranked:
        for hit in hits:
            key = passage_key(hit)
            if key in seen:
                continue
            seen.add(key)
            merged.append(replace(hit, rank=len(merged) + 1))
            if len(merged) == k:
                return merged
    return merged


def search_collections(
    search: Callable[[SearchFilter], SearchResult],
    collections: Sequence[str],
    flt: SearchFilter,
    k: int,
) -> SearchResult:
    """Runs `search` once per collection (`flt` with its collection replaced) and merges
    the results by priority; timings are summed per stage."""
    results = [search(replace(flt, collection=name)) for name in collections]
    timings: dict[str, float] = {}
    for result in results:
        for stage, ms in result.timings_ms.items():
            timings[stage] = timings.get(stage, 0.0) + ms
    query = results[0].query if results else ""
    hits = merge_by_priority([r.hits for r in results], k)
    return SearchResult(query=query, hits=tuple(hits), timings_ms=timings)
