"""Compares vector index candidates for the embedded store: latency, recall, filtering, delete.

Run: .venv/bin/python benchmarks/experiments/vector_index_candidates.py --sizes 20000,100000,1000000
Candidates: exact numpy over one contiguous partition (what the store uses), usearch HNSW
(f32). sqlite-vec needs sqlite3.enable_load_extension, which this Python build lacks, so it
is reported as unavailable rather than measured.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import time

import numpy as np

from citewise.evaluation.bench import synthetic_vectors
from citewise.store.vector_index import Partition, top_k


def _ms(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    return {
        "p50_ms": round(statistics.median(s), 3),
        "p99_ms": round(s[int(0.99 * (len(s) - 1))], 3),
    }


def exact(
    matrix: np.ndarray, probes: np.ndarray, k: int
) -> tuple[dict[str, float], list[set[int]]]:
    part = Partition(0, np.arange(len(matrix), dtype=np.int64), matrix)
    times, truth = [], []
    for q in probes:
        t = time.perf_counter()
        res = top_k(part, q, k)
        times.append((time.perf_counter() - t) * 1000)
        truth.append({i for i, _ in res})
    return _ms(times), truth


def exact_filtered(matrix: np.ndarray, probes: np.ndarray, k: int, parts: int) -> dict[str, float]:
    """One collection out of `parts`, stored as its own contiguous partition."""
    n = len(matrix) // parts
    part = Partition(0, np.arange(n, dtype=np.int64), np.ascontiguousarray(matrix[:n]))
    times = []
    for q in probes:
        t = time.perf_counter()
        top_k(part, q, k)
        times.append((time.perf_counter() - t) * 1000)
    return _ms(times)


def usearch_hnsw(
    matrix: np.ndarray, probes: np.ndarray, k: int, truth: list[set[int]]
) -> dict[str, object]:
    from usearch.index import Index

    index = Index(ndim=matrix.shape[1], metric="cos", dtype="f32", connectivity=16,
                  expansion_add=128, expansion_search=64)  # fmt: skip
    t = time.perf_counter()
    index.add(np.arange(len(matrix)), matrix, threads=2)
    build_s = time.perf_counter() - t
    times, recalls = [], []
    for q, want in zip(probes, truth, strict=True):
        t = time.perf_counter()
        got = index.search(q, k)
        times.append((time.perf_counter() - t) * 1000)
        recalls.append(len(want & {int(x) for x in got.keys}) / k)
    t = time.perf_counter()
    for key in range(100):
        index.remove(key)
    delete_ms = (time.perf_counter() - t) * 1000 / 100
    return {**_ms(times), "recall@k": round(float(np.mean(recalls)), 4),
            "build_s": round(build_s, 1), "delete_ms": round(delete_ms, 3)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="20000,100000,1000000")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--k", type=int, default=20)
    ap.add_argument("--out")
    args = ap.parse_args()
    conn = sqlite3.connect(":memory:")
    rows: list[dict[str, object]] = [
        {
            "candidate": "sqlite-vec",
            "available": hasattr(conn, "enable_load_extension"),
            "note": "needs sqlite3.enable_load_extension",
        }
    ]
    for n in (int(s) for s in args.sizes.split(",")):
        matrix = synthetic_vectors(n)
        probes = synthetic_vectors(args.queries, seed=7)
        lat, truth = exact(matrix, probes, args.k)
        rows.append({"chunks": n, "candidate": "exact numpy", **lat, "recall@k": 1.0,
                     "one_of_100_collections": exact_filtered(matrix, probes, args.k, 100),
                     "delete": "mask/reload, no rebuild"})  # fmt: skip
        rows.append(
            {
                "chunks": n,
                "candidate": "usearch HNSW",
                **usearch_hnsw(matrix, probes, args.k, truth),
            }
        )
        print(json.dumps(rows[-2:]), flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()
