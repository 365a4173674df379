"""Searching several collections in priority order (a client's own, then the global one):
each collection is searched on its own, scoped inside the store's SQL, and the lists are
merged into one ranking, each passage once, the earlier collection winning ties and
duplicates."""

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
    """At most `k` hits of lists in priority order, best score first. Scores of one
    retriever are comparable across collections (fused ranks, BM25 over one index,
    cosine), so the global collection's strong passage outranks a weak one of the client's
    own instead of never being reached. A passage in several lists is kept once, as the
    earliest list's copy with its best score; equal scores go to the earlier list."""
    best: dict[str, tuple[float, int, int, Hit]] = {}
    for priority, hits in enumerate(ranked):
        for position, hit in enumerate(hits):
            key = passage_key(hit)
            kept = best.get(key)
            if kept is None:
                best[key] = (hit.score, priority, position, hit)
            elif hit.score > kept[0]:
                best[key] = (hit.score, *kept[1:])
    order = sorted(best.values(), key=lambda e: (-e[0], e[1], e[2]))[:k]
    return [replace(hit, rank=i + 1, score=score) for i, (score, _, _, hit) in enumerate(order)]


def search_collections(
    search: Callable[[SearchFilter], SearchResult],
    collections: Sequence[str],
    flt: SearchFilter,
    k: int,
) -> SearchResult:
    """Runs `search` once per collection (`flt` with its collection replaced) and merges
    the results (`merge_by_priority`); timings are summed per stage."""
    results = [search(replace(flt, collection=name)) for name in collections]
    timings: dict[str, float] = {}
    for result in results:
        for stage, ms in result.timings_ms.items():
            timings[stage] = timings.get(stage, 0.0) + ms
    query = results[0].query if results else ""
    hits = merge_by_priority([r.hits for r in results], k)
    return SearchResult(query=query, hits=tuple(hits), timings_ms=timings)
