"""Hybrid search in the store: an optional capability beside the core `Store` protocol.

A backend that can rank keywords and vectors and fuse both lists with reciprocal rank fusion
in one round trip implements `HybridSearch`. Its result must equal what the two plain
searches fused by `retrieve.fusion.reciprocal_rank_fusion` give (the contract test compares
them): score Σ w / (rrf_k + rank), ties by best single rank, then chunk id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from citewise.embed.base import Vectors
from citewise.types import Candidate, SearchFilter


@dataclass(frozen=True, slots=True)
class FusedCandidate:
    chunk_id: int
    score: float
    keyword_rank: int | None
    vector_rank: int | None


@dataclass(frozen=True, slots=True)
class HybridRanking:
    """Each list as `keyword_search` / `vector_search` return it, and their fusion."""

    keyword: list[Candidate]
    vector: list[Candidate]
    fused: list[FusedCandidate]


@dataclass(frozen=True, slots=True)
class HybridQuery:
    terms: Sequence[str]  # as `keyword_search` takes them
    vector: Vectors
    keyword_k: int
    vector_k: int
    rrf_k: int = 60
    keyword_weight: float = 1.0
    vector_weight: float = 1.0


@runtime_checkable
class HybridSearch(Protocol):
    def hybrid_search(self, query: HybridQuery, flt: SearchFilter) -> HybridRanking: ...
