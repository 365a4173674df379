"""The Reranker protocol and helpers shared by its backends (see `retrieve.rerank`)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

from citewise.types import Hit
from citewise.types.vectors import Vectors

FUSED = "fused"
"""Key under which a reranked hit's `retriever_ranks` keeps its first-stage (fused) rank."""


@runtime_checkable
class Reranker(Protocol):
    """Reorders first-stage hits for a query.

    `rerank` returns at most `k` new `Hit`s, best first, with `rank` 1..n, the reranker's
    `score` (non-negative, higher is better) and the incoming rank kept in
    `retriever_ranks["fused"]` next to the per-retriever ranks. `last_fallback` is None when
    the last call in this thread ran as configured, else a short reason (e.g. the LLM failed
    and the incoming order was kept): the caller puts it into its trace.
    `select_threshold` is the relative score threshold that suits this reranker's scores,
    for `select_passages`. `query_vector`: the query's embedding, when the caller has it
    (a reranker that needs one then does not embed the query again).
    """

    name: str
    select_threshold: float

    @property
    def last_fallback(self) -> str | None: ...

    def rerank(
        self, query: str, hits: Sequence[Hit], k: int, *, query_vector: Vectors | None = None
    ) -> list[Hit]: ...


@dataclass(frozen=True, slots=True)
class RerankResult:
    """What a rerank call returns to the answer flow: the hits, and why the configured
    reranker did not run as configured (None when it did)."""

    hits: list[Hit]
    fallback: str | None = None
    # False: the order is not the scores' (one passage a document first): a cut relative to
    # the top score would drop the documents the order brought up
    by_score: bool = True


def rerank_result(
    reranker: Reranker,
    query: str,
    hits: Sequence[Hit],
    k: int,
    *,
    query_vector: Vectors | None = None,
) -> RerankResult:
    """`reranker.rerank` with its fallback read in the same call: callers never consult the
    reranker's per-thread state themselves."""
    ranked = reranker.rerank(query, hits, k, query_vector=query_vector)
    return RerankResult(ranked, reranker.last_fallback)


class FallbackRecorder:
    """Per-thread `last_fallback`, so one reranker can serve concurrent requests."""

    def __init__(self) -> None:
        self._local = threading.local()

    @property
    def last_fallback(self) -> str | None:
        value: str | None = getattr(self._local, "fallback", None)
        return value

    def _record(self, reason: str | None) -> None:
        self._local.fallback = reason


def reordered(hits: Sequence[Hit], scores: Sequence[float], k: int) -> list[Hit]:
    """Hits sorted by `scores` (descending; ties keep the incoming order), cut to `k`, as new
    Hits with ranks 1..n and the incoming rank saved under `retriever_ranks["fused"]`."""
    if len(hits) != len(scores):
        raise ValueError(f"{len(hits)} hits but {len(scores)} scores")
    order = sorted(range(len(hits)), key=lambda i: (-scores[i], i))[: max(k, 0)]
    return [
        replace(
            hits[i],
            rank=n,
            score=float(scores[i]),
            retriever_ranks={**hits[i].retriever_ranks, FUSED: hits[i].rank},
        )
        for n, i in enumerate(order, start=1)
    ]


def kept(hits: Sequence[Hit], k: int) -> list[Hit]:
    """The first `k` hits in their incoming order and scores, renumbered, fused rank saved."""
    return [
        replace(h, rank=n, retriever_ranks={**h.retriever_ranks, FUSED: h.rank})
        for n, h in enumerate(hits[: max(k, 0)], start=1)
    ]


class NoRerank(FallbackRecorder):
    """Keeps the first-stage order and scores; only cuts to `k` (and records the fused rank)."""

    name = "none"
    select_threshold = 0.0  # RRF scores halve when one retriever misses: no cut by score

    def rerank(
        self, query: str, hits: Sequence[Hit], k: int, *, query_vector: Vectors | None = None
    ) -> list[Hit]:
        self._record(None)
        return kept(hits, k)
