"""Runs a question set against the retrieval stack and aggregates metrics per type."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from citewise.evaluation.dataset import EvalItem, Gold
from citewise.evaluation.metrics import (
    RetrievedPassage,
    all_files_rank,
    files_covered,
    first_rank,
    hit_at,
    reciprocal_rank,
)
from citewise.types import SearchMode, SearchResult

SearchFn = Callable[[str, SearchMode, int], SearchResult]
OVERALL = "all"


@dataclass(frozen=True, slots=True)
class ItemResult:
    id: str
    type: str
    style: str
    file_rank: int
    quote_rank: int
    coverage_at_5: float
    latency_ms: float


@dataclass(frozen=True, slots=True)
class Aggregate:
    group: str
    n: int
    file_hit: dict[int, float]
    quote_hit: dict[int, float]
    mrr: float
    coverage_at_5: float
    p50_ms: float

    def to_json(self) -> dict[str, object]:
        return {
            "n": self.n,
            **{f"file@{k}": round(v, 3) for k, v in self.file_hit.items()},
            **{f"quote@{k}": round(v, 3) for k, v in self.quote_hit.items()},
            "mrr": round(self.mrr, 3),
            "coverage@5": round(self.coverage_at_5, 3),
            "p50_ms": round(self.p50_ms, 2),
        }


def evaluate_item(item: EvalItem, passages: Sequence[RetrievedPassage], ms: float) -> ItemResult:
    gold = item.gold
    if item.type == "multi":
        file_rank = all_files_rank(passages, gold)
        quote_rank = _all_quotes_rank(passages, gold)
    else:
        file_rank = first_rank(passages, gold, quote=False)
        quote_rank = first_rank(passages, gold, quote=True)
    return ItemResult(
        item.id, item.type, item.style, file_rank, quote_rank, files_covered(passages, gold, 5), ms
    )


def _all_quotes_rank(passages: Sequence[RetrievedPassage], gold: Sequence[Gold]) -> int:
    ranks = [first_rank(passages, [g], quote=True) for g in gold]
    return 0 if 0 in ranks else max(ranks)


def run_retrieval(
    items: Sequence[EvalItem], search: SearchFn, mode: SearchMode, k: int = 10
) -> list[ItemResult]:
    results: list[ItemResult] = []
    for item in items:
        if not item.retrievable:
            continue
        started = time.perf_counter()
        found = search(item.retrieval_query(), mode, k)
        ms = (time.perf_counter() - started) * 1000
        passages = [RetrievedPassage(h.source, h.text) for h in found.hits]
        results.append(evaluate_item(item, passages, ms))
    return results


def aggregate(results: Sequence[ItemResult], ks: Sequence[int] = (1, 5, 10)) -> list[Aggregate]:
    groups: dict[str, list[ItemResult]] = {}
    for r in results:
        groups.setdefault(r.type, []).append(r)
        if r.style:
            groups.setdefault(f"{r.type}:{r.style}", []).append(r)
    # "all" is the headline: single-turn questions with gold passages.
    groups[OVERALL] = [r for r in results if r.type != "conversation"]
    out: list[Aggregate] = []
    for name, rows in groups.items():
        if not rows:
            continue
        out.append(
            Aggregate(
                group=name,
                n=len(rows),
                file_hit={k: _mean(hit_at(r.file_rank, k) for r in rows) for k in ks},
                quote_hit={k: _mean(hit_at(r.quote_rank, k) for r in rows) for k in ks},
                mrr=_mean(reciprocal_rank(r.file_rank) for r in rows),
                coverage_at_5=_mean(r.coverage_at_5 for r in rows),
                p50_ms=statistics.median(r.latency_ms for r in rows),
            )
        )
    return out


def _mean(values: object) -> float:
    vals = list(values)  # type: ignore[call-overload]
    return sum(vals) / len(vals) if vals else 0.0
