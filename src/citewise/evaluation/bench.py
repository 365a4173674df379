"""Benchmarks: ingest throughput and memory, query latency, vector index scaling.

Figures, never assertions: `citewise bench` prints them; the README keeps the table.
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from citewise.evaluation.dataset import load_items
from citewise.store.vector_index import Partition, top_k
from citewise.types import SearchMode


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def percentiles(samples_ms: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    if not ordered:
        return {"p50_ms": 0.0, "p99_ms": 0.0}
    p99_index = min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))
    return {
        "p50_ms": round(statistics.median(ordered), 2),
        "p99_ms": round(ordered[p99_index], 2),
    }


def bench_ingest(corpus: Path, embedder: str, data_dir: Path | None = None) -> dict[str, object]:
    """First ingest into an empty store, then an unchanged re-ingest."""
    from citewise.assistant import Assistant

    root = data_dir or Path(tempfile.mkdtemp(prefix="citewise-bench-"))
    with Assistant(data_dir=root, embedder=embedder) as assistant:
        assistant.warm_up()  # model load is reported apart from ingest
        first = assistant.ingest([corpus])
        rss_after_first = peak_rss_mb()
        again = assistant.ingest([corpus])
        stats = assistant.stats()
    return {
        "corpus": str(corpus),
        "embedder": embedder,
        "data_dir": str(root),
        "files": len(first.outcomes),
        "failed": first.count("failed"),
        "pages": first.pages,
        "chunks": stats["chunks"],
        "first_ingest_s": round(first.seconds, 2),
        "pages_per_s": round(first.pages / first.seconds, 2),
        "chunks_per_s": round(stats["chunks"] / first.seconds, 2),
        "reingest_s": round(again.seconds, 3),
        "reingest_share": round(again.seconds / first.seconds, 4),
        "peak_rss_mb": round(rss_after_first, 1),
    }


def bench_queries(
    data_dir: Path, embedder: str, questions: Path, modes: Sequence[SearchMode], repeat: int = 3
) -> dict[str, dict[str, float]]:
    from citewise.assistant import Assistant

    items = load_items(questions)
    queries = [i.question for i in items if i.question.strip()]
    out: dict[str, dict[str, float]] = {}
    with Assistant(data_dir=data_dir, embedder=embedder) as assistant:
        assistant.search("warm up", k=10)  # loads the model and the vector partition
        for mode in modes:
            samples: list[float] = []
            for _ in range(repeat):
                for q in queries:
                    t = time.perf_counter()
                    assistant.search(q, k=10, mode=mode)
                    samples.append((time.perf_counter() - t) * 1000)
            out[mode] = {**percentiles(samples), "queries": float(len(samples))}
    return out


def synthetic_vectors(n: int, dim: int = 384, clusters: int = 256, seed: int = 0) -> np.ndarray:
    """Clustered unit vectors: closer to real embeddings than uniform noise."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(clusters, dim)).astype(np.float32)
    out = np.empty((n, dim), dtype=np.float32)
    step = 100_000
    for start in range(0, n, step):
        m = min(step, n - start)
        pick = rng.integers(0, clusters, size=m)
        out[start : start + m] = centres[pick] + 0.6 * rng.normal(size=(m, dim)).astype(np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


def bench_vector_index(
    sizes: Sequence[int], embed_query: Callable[[str], np.ndarray] | None, queries: int = 100
) -> list[dict[str, object]]:
    """Exact partition search at each size, with the real query embedding time added."""
    rows: list[dict[str, object]] = []
    embed_ms = 0.0
    if embed_query is not None:
        samples = []
        for i in range(20):
            t = time.perf_counter()
            embed_query(f"how do I configure option number {i} of the logging module")
            samples.append((time.perf_counter() - t) * 1000)
        embed_ms = statistics.median(samples)
    for n in sizes:
        matrix = synthetic_vectors(n)
        part = Partition(0, np.arange(n, dtype=np.int64), matrix)
        probe = synthetic_vectors(queries, seed=1)
        timings = []
        for q in probe:
            t = time.perf_counter()
            top_k(part, q, 20)
            timings.append((time.perf_counter() - t) * 1000)
        stats = percentiles(timings)
        rows.append(
            {
                "chunks": n,
                "index": "exact numpy (partition)",
                "search_p50_ms": stats["p50_ms"],
                "search_p99_ms": stats["p99_ms"],
                "embed_query_ms": round(embed_ms, 2),
                "total_p50_ms": round(stats["p50_ms"] + embed_ms, 2),
                "matrix_mb": round(matrix.nbytes / 2**20, 1),
            }
        )
        del matrix, part
    return rows


def bench_answers(data_dir: Path, embedder: str, questions: Path) -> dict[str, float]:
    """`ask` latency through the whole flow (intent, retrieval, rerank, answer, verify) for
    every single-turn question, each in a fresh session; the default, LLM-free answerer
    unless CITEWISE_LLM is set."""
    from citewise.assistant import Assistant
    from citewise.chat.memory import SQLiteMemory

    items = [i for i in load_items(questions) if not i.turns and i.question.strip()]
    with (
        tempfile.TemporaryDirectory() as tmp,
        Assistant(
            data_dir=data_dir, embedder=embedder, memory=SQLiteMemory(Path(tmp) / "memory.db")
        ) as chat,
    ):
        chat.ask("warm up: what is this about?")
        samples: list[float] = []
        for item in items:
            t = time.perf_counter()
            chat.ask(item.question)
            samples.append((time.perf_counter() - t) * 1000)
    return {**percentiles(samples), "questions": float(len(samples))}
