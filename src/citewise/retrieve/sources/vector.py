"""Nearest chunks to the query's embedding, as a candidate source."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from citewise.embed.base import Embedder
from citewise.retrieve.sources.base import SourceQuery
from citewise.store.base import Store
from citewise.types import Candidate, SearchMode
from citewise.types.vectors import Vectors


@dataclass(frozen=True, slots=True)
class VectorSource:
    """Nearest chunks to the query's embedding (the caller's, else embedded here)."""

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
        vector = query_vector(query, self.embedder_factory)
        return self.store.vector_search(vector, query.flt, query.depth(self.k))


def query_vector(query: SourceQuery, embedder_factory: Callable[[], Embedder]) -> Vectors:
    """The query's embedding: the one it carries, else embedded now (an "embed_query" span)."""
    if query.vector is not None:
        return query.vector
    with query.trace.span("embed_query"):
        return embedder_factory().embed_query(query.text)
