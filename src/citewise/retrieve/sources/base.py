"""Candidate sources: each ranks chunks for a query its own way; `HybridRetriever` runs a
list of them and fuses their rankings with N-ary RRF.

A source sees the lists the sources before it produced (a genre source may rank its finds by
what general search found); it records sub-step timings in `query.timings` if it has any.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from citewise.embed.base import Embedder
from citewise.retrieve.query import query_terms
from citewise.store.base import Store
from citewise.types import Candidate, SearchFilter, SearchMode


@dataclass(frozen=True, slots=True)
class SourceQuery:
    text: str  # validated query
    k: int  # hits the caller wants
    mode: SearchMode
    flt: SearchFilter
    timings: dict[str, float] = field(default_factory=dict)

    def depth(self, own: int) -> int:
        """A source's list depth: its own in a hybrid search, at least `k` when alone."""
        return own if self.mode == "hybrid" else max(self.k, own)


class CandidateSource(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def weight(self) -> float:
        """Its weight in the fusion."""
        ...

    def serves(self, mode: SearchMode) -> bool: ...

    def candidates(
        self, query: SourceQuery, found: Mapping[str, Sequence[Candidate]]
    ) -> list[Candidate]: ...


@dataclass(frozen=True, slots=True)
class KeywordSource:
    """BM25 over the query's content words, OR-ed."""

    store: Store
    k: int = 20
    weight: float = 1.0
    name: str = "keyword"

    def serves(self, mode: SearchMode) -> bool:
        return mode in ("hybrid", "keyword")

    def candidates(
        self, query: SourceQuery, found: Mapping[str, Sequence[Candidate]]
    ) -> list[Candidate]:
        terms = query_terms(query.text)
        return self.store.keyword_search(terms, query.flt, query.depth(self.k)) if terms else []


@dataclass(frozen=True, slots=True)
class VectorSource:
    """Nearest chunks to the query's embedding."""

    store: Store
    embedder_factory: Callable[[], Embedder]
    k: int = 20
    weight: float = 1.0
    name: str = "vector"

    def serves(self, mode: SearchMode) -> bool:
        return mode in ("hybrid", "vector")

    def candidates(
        self, query: SourceQuery, found: Mapping[str, Sequence[Candidate]]
    ) -> list[Candidate]:
        t = time.perf_counter()
        vec = self.embedder_factory().embed_query(query.text)
        query.timings["embed_query"] = ms_since(t)
        t = time.perf_counter()
        out = self.store.vector_search(vec, query.flt, query.depth(self.k))
        query.timings[self.name] = ms_since(t)
        return out


def ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0
