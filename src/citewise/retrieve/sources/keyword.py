"""BM25 over the query's content words, as a candidate source."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citewise.retrieve.query import query_terms
from citewise.retrieve.sources.base import SourceQuery
from citewise.store.base import Store
from citewise.types import Candidate, SearchMode


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
        terms = query_terms(query.keyword_text)
        return self.store.keyword_search(terms, query.flt, query.depth(self.k)) if terms else []
