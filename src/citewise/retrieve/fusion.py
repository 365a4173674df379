"""Reciprocal rank fusion (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citewise.types import Candidate


@dataclass(frozen=True, slots=True)
class Fused:
    chunk_id: int
    score: float
    ranks: Mapping[str, int]


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[Candidate]],
    *,
    k: int = 60,
    weights: Mapping[str, float] | None = None,
) -> list[Fused]:
    """score(d) = Σ_r w_r / (k + rank_r(d)); ties broken by best single rank, then id."""
    scores: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for name, candidates in rankings.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        for cand in candidates:
            scores[cand.chunk_id] = scores.get(cand.chunk_id, 0.0) + weight / (k + cand.rank)
            ranks.setdefault(cand.chunk_id, {})[name] = cand.rank
    ordered = sorted(scores, key=lambda cid: (-scores[cid], min(ranks[cid].values()), cid))
    return [Fused(cid, scores[cid], ranks[cid]) for cid in ordered]
