"""Keyword and vector search fused by the store in one round trip (`store.base`), used by
`HybridRetriever` when the store offers it and the keyword and vector sources are the first
two of a hybrid search. The later (genre) sources still see both lists; when any of them
adds candidates, the retriever fuses everything with the N-ary RRF in Python instead."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citewise.retrieve.fusion import Fused
from citewise.retrieve.query import query_terms
from citewise.retrieve.sources.base import CandidateSource, SourceQuery
from citewise.retrieve.sources.keyword import KeywordSource
from citewise.retrieve.sources.vector import VectorSource, query_vector
from citewise.store.base import HybridQuery, HybridSearch, Store
from citewise.types import Candidate


@dataclass(frozen=True, slots=True)
class StoreFused:
    rankings: dict[str, list[Candidate]]  # by source name: keyword, vector
    fused: list[Fused]


def fuse_in_store(
    store: Store, sources: Sequence[CandidateSource], query: SourceQuery, rrf_k: int
) -> StoreFused | None:
    """Both lists and their fusion from one statement; None when the store cannot or the
    search is not the keyword + vector hybrid."""
    serving = [s for s in sources if s.serves(query.mode)]
    if (
        query.mode != "hybrid"
        or not isinstance(store, HybridSearch)
        or len(serving) < 2
        or not isinstance(serving[0], KeywordSource)
        or not isinstance(serving[1], VectorSource)
    ):
        return None
    keyword, vector = serving[0], serving[1]
    embedded = query_vector(query, vector.embedder_factory)
    with query.trace.span("hybrid_sql"):
        ranking = store.hybrid_search(
            HybridQuery(
                terms=query_terms(query.keyword_text), vector=embedded,
                keyword_k=query.depth(keyword.k), vector_k=query.depth(vector.k), rrf_k=rrf_k,
                keyword_weight=keyword.weight, vector_weight=vector.weight,
            ),
            query.flt,
        )  # fmt: skip
    fused = [
        Fused(f.chunk_id, f.score, _ranks(keyword.name, f.keyword_rank, vector.name, f.vector_rank))
        for f in ranking.fused
    ]
    return StoreFused({keyword.name: ranking.keyword, vector.name: ranking.vector}, fused)


def _ranks(kw_name: str, kw: int | None, vec_name: str, vec: int | None) -> dict[str, int]:
    ranks: dict[str, int] = {}
    if kw is not None:
        ranks[kw_name] = kw
    if vec is not None:
        ranks[vec_name] = vec
    return ranks
