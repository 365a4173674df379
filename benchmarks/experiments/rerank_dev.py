"""Does reranking help? None vs the no-model rescoring (and a weight grid) on the dev set.

    .venv/bin/python benchmarks/experiments/rerank_dev.py --data-dir D \
        [--dev benchmarks/check_sets/dev.jsonl] [--depth 20] [--exclude PREFIX] [--no-sweep]
        [--json OUT.json]

D is a data dir where the dev corpus (/usr/share/doc/python3.11/html) is already ingested
(`citewise eval` keeps its store under D/eval/<corpus>-<hash>/: that is found too). Nothing is
written to it. For every answerable question with gold files: hybrid search top-`depth`, then
each reranker; file@1/@3/@5 and quote@5 with the project's metric functions (multi: all gold
files / quotes). Conversations use their last question as is (no rewrite: low by design).

Chunk vectors are read from the store's `vectors` table (what `Store.get_vectors` would do) and
the query vector is computed once per question, as the retriever already has it; the rerank
latency is the rescoring itself including that vector read. The weight grid is scored on all
single-turn questions and, to expose overfitting, by 2-fold cross-validation (tune on one half
of the questions, score on the other).

`--exclude _sources/` simulates a corpus without those files (the dev folder holds every page
twice: as HTML and as its reST source in _sources/*.rst.txt, which has no headings): their
candidates are dropped from a 2×depth search before the cut to depth.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import citewise.evaluation.metrics as metrics
from citewise import Assistant
from citewise.answer.policy import policy_for
from citewise.assistant.inside import inside
from citewise.embed.base import Vectors
from citewise.evaluation.dataset import EvalItem, load_items
from citewise.evaluation.metrics import RetrievedPassage, hit_at, reciprocal_rank
from citewise.evaluation.runner import evaluate_item
from citewise.retrieve.rerank import (
    Features,
    RescoreReranker,
    RescoreWeights,
    reordered,
    select_passages,
)
from citewise.types import Hit

DEV = Path(__file__).resolve().parents[1] / "check_sets" / "dev.jsonl"
METRICS = ("file@1", "file@3", "file@5", "quote@5", "file_mrr", "quote_mrr")
HEADLINE = METRICS[:4]  # what the grid optimises (the MRRs are shown as finer-grained checks)
UNTUNED = RescoreWeights(fused=1.0, dense=1.0, terms=1.0, identifiers=1.0, section=1.0)
SIMPLE = RescoreWeights(fused=1.0, dense=1.0, terms=0.0, identifiers=0.0, section=0.0)
KIND_OF_TYPE = {"lookup": "simple", "conversation": "conversational"}  # others: "complex"


@dataclass
class Case:
    item: EvalItem
    hits: list[Hit]
    features: list[Features]
    rescore_ms: float


# the grid re-scores the same passages many times: memoise the quote test (a pure function)
metrics.contains_quote = functools.lru_cache(maxsize=None)(metrics.contains_quote)


def resolve_data_dir(path: Path) -> Path:
    if (path / "citewise.db").is_file():
        return path
    found = sorted((path / "eval").glob("*/citewise.db"))
    if len(found) == 1:
        return found[0].parent
    sys.exit(f"no citewise.db in {path} (nor one under {path}/eval/*/)")


def vector_reader(db: Path) -> Callable[[Sequence[int]], Mapping[int, Vectors]]:
    """The lookup the store should offer: one indexed SELECT by primary key."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)

    def lookup(ids: Sequence[int]) -> Mapping[int, Vectors]:
        if not ids:
            return {}
        rows = conn.execute(
            f"SELECT chunk_id, vec FROM vectors WHERE chunk_id IN ({','.join('?' * len(ids))})",
            tuple(ids),
        ).fetchall()
        return {int(cid): np.frombuffer(blob, dtype=np.float32) for cid, blob in rows}

    return lookup


def scores(item: EvalItem, hits: Sequence[Hit]) -> dict[str, float]:
    passages = [RetrievedPassage(h.source, h.text) for h in hits]
    r = evaluate_item(item, passages, 0.0)
    return {
        "file@1": hit_at(r.file_rank, 1),
        "file@3": hit_at(r.file_rank, 3),
        "file@5": hit_at(r.file_rank, 5),
        "quote@5": hit_at(r.quote_rank, 5),
        "file_mrr": reciprocal_rank(r.file_rank),
        "quote_mrr": reciprocal_rank(r.quote_rank),
    }


def rows_for(
    cases: Sequence[Case], rank: Callable[[Case], list[Hit]]
) -> dict[str, dict[str, float]]:
    per: list[tuple[EvalItem, dict[str, float]]] = [
        (c.item, scores(c.item, rank(c))) for c in cases
    ]
    groups: dict[str, list[dict[str, float]]] = {}
    for item, s in per:
        if item.type != "conversation":
            groups.setdefault("all", []).append(s)
        groups.setdefault(item.type, []).append(s)
        if item.style:
            groups.setdefault(f"{item.type}:{item.style}", []).append(s)
    return {
        g: {"n": float(len(v)), **{m: statistics.mean(x[m] for x in v) for m in METRICS}}
        for g, v in groups.items()
    }


def by_weights(w: RescoreWeights) -> Callable[[Case], list[Hit]]:
    return lambda c: reordered(c.hits, [w.combine(f) for f in c.features], len(c.hits))


def objective(table: Mapping[str, Mapping[str, float]]) -> float:
    return statistics.mean(table["all"][m] for m in HEADLINE)


def grid() -> list[RescoreWeights]:
    return [
        RescoreWeights(fused=f, dense=d, terms=t, identifiers=i, section=s)
        for f, d, t, i, s in itertools.product(
            (0.5, 1.0),
            (0.0, 0.5, 1.0, 1.5, 2.0),
            (0.0, 0.25, 0.5, 1.0),
            (0.0, 0.25, 0.5),
            (0.0, 0.25, 0.5),
        )
    ]


def print_table(title: str, tables: Mapping[str, Mapping[str, Mapping[str, float]]]) -> None:
    print(f"\n{title}")
    groups = list(next(iter(tables.values())).keys())
    print(f"{'group':<20}{'n':>4}  {'setting':<10}" + "".join(f"{m:>10}" for m in METRICS))
    for g in groups:
        for name, t in tables.items():
            row = t[g]
            cells = "".join(f"{row[m]:>10.3f}" for m in METRICS)
            print(f"{g:<20}{int(row['n']):>4}  {name:<10}{cells}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--dev", type=Path, default=DEV)
    ap.add_argument("--depth", type=int, default=20)
    ap.add_argument("--exclude", default="", help="drop candidates whose source starts so")
    ap.add_argument("--no-sweep", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()

    data_dir = resolve_data_dir(args.data_dir)
    items = [i for i in load_items(args.dev) if i.retrievable]
    assistant = Assistant(data_dir=data_dir)
    embedder = inside(assistant).embedder()
    lookup = vector_reader(assistant.settings.db_path)
    reranker = RescoreReranker(inside(assistant).embedder, vector_lookup=lookup)

    cases: list[Case] = []
    with_query_ms: list[float] = []
    for item in items:
        if args.exclude:
            found = assistant.search(item.question, k=2 * args.depth).hits
            hits = [h for h in found if not h.source.startswith(args.exclude)][: args.depth]
        else:
            hits = list(assistant.search(item.question, k=args.depth).hits)
        qvec = embedder.embed_query(item.question)
        started = time.perf_counter()
        feats = reranker.features(item.question, hits, query_vector=qvec)
        ms = (time.perf_counter() - started) * 1000
        if reranker.last_fallback:
            print(f"{item.id}: {reranker.last_fallback}", file=sys.stderr)
        started = time.perf_counter()
        reranker.rerank(item.question, hits, args.depth)  # embeds the query itself
        with_query_ms.append((time.perf_counter() - started) * 1000)
        cases.append(Case(item, hits, feats, ms))

    # the slow path the store method avoids: embedding the passages on every query
    slow = RescoreReranker(inside(assistant).embedder)
    embed_ms = []
    for c in cases[:5]:
        started = time.perf_counter()
        slow.rerank(c.item.question, c.hits, 10, query_vector=embedder.embed_query(c.item.question))
        embed_ms.append((time.perf_counter() - started) * 1000)

    tuned = RescoreWeights()  # the defaults
    tables = {
        "none": rows_for(cases, lambda c: c.hits),
        "untuned": rows_for(cases, by_weights(UNTUNED)),
        "simple": rows_for(cases, by_weights(SIMPLE)),
        "default": rows_for(cases, by_weights(tuned)),
    }
    results: dict[str, object] = {}
    if not args.no_sweep:
        sweep = [(objective(rows_for(cases, by_weights(w))), w) for w in grid()]
        sweep.sort(key=lambda p: -p[0])
        best = sweep[0][1]
        tables["grid-best"] = rows_for(cases, by_weights(best))
        print("\ntop 10 weight settings (mean of file@1/@3/@5, quote@5 over 'all'):")
        for obj, w in sweep[:10]:
            print(f"  {obj:.3f}  {w}")
        results["grid_top"] = [{"objective": o, **asdict(w)} for o, w in sweep[:20]]
        cv = cross_validate(cases)
        results["cross_validation"] = cv
        print("\n2-fold CV (tuned on one half, scored on the other; objective):")
        for row in cv:
            print(f"  {row}")

    print_table(f"dev set, hybrid top-{args.depth} then rerank", tables)
    lat = statistics.median(c.rescore_ms for c in cases)
    print(f"\nrescore latency per query: median {lat:.2f} ms (stored vectors, query vector given)")
    print(f"  ... embedding the query too: median {statistics.median(with_query_ms):.2f} ms")
    print(f"with passages embedded instead: median {statistics.median(embed_ms):.0f} ms (5 q)")
    selection = selection_table(cases, tuned)
    print(
        "\nselect_passages after the default rescoring, caps simple 3 / complex 6"
        f" (rescore's select_threshold is {reranker.select_threshold}):"
    )
    for row in selection:
        print(f"  {row}")
    if args.json:
        results.update(
            tables=tables,
            rescore_ms_p50=lat,
            rescore_with_query_embedding_ms_p50=statistics.median(with_query_ms),
            embed_fallback_ms_p50=statistics.median(embed_ms),
            default_weights=asdict(tuned),
            untuned_weights=asdict(UNTUNED),
            selection=selection,
        )
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


def cross_validate(cases: Sequence[Case]) -> list[dict[str, object]]:
    single = [c for c in cases if c.item.type != "conversation"]
    folds = [single[0::2], single[1::2]]
    out: list[dict[str, object]] = []
    for n, (train, test) in enumerate([(folds[0], folds[1]), (folds[1], folds[0])]):
        best = max(grid(), key=lambda w: objective(rows_for(train, by_weights(w))))
        out.append(
            {
                "fold": n,
                "best_on_train": asdict(best),
                "test_tuned": round(objective(rows_for(test, by_weights(best))), 3),
                "test_default": round(objective(rows_for(test, by_weights(RescoreWeights()))), 3),
                "test_untuned": round(objective(rows_for(test, by_weights(UNTUNED))), 3),
                "test_simple": round(objective(rows_for(test, by_weights(SIMPLE))), 3),
                "test_none": round(objective(rows_for(test, lambda c: c.hits)), 3),
            }
        )
    return out


def selection_table(cases: Sequence[Case], w: RescoreWeights) -> list[dict[str, object]]:
    """How many passages the adaptive k keeps, and whether a gold quote survives."""
    single = [c for c in cases if c.item.type != "conversation"]
    out: list[dict[str, object]] = []
    for threshold in (0.0, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9):
        kept, hit = [], []
        for c in single:
            ranked = by_weights(w)(c)
            kind = KIND_OF_TYPE.get(c.item.type, "complex")
            chosen = select_passages(ranked, policy_for(kind).passages, threshold)
            kept.append(len(chosen))
            passages = [RetrievedPassage(h.source, h.text) for h in chosen]
            hit.append(1.0 if evaluate_item(c.item, passages, 0.0).quote_rank else 0.0)
        out.append(
            {
                "threshold": threshold,
                "mean_kept": round(statistics.mean(kept), 2),
                "quote_in_kept": round(statistics.mean(hit), 3),
            }
        )
    return out


if __name__ == "__main__":
    main()
