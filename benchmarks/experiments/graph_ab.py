"""Cached MiniLM graphs A/B on the same chunks: texts/s by wall and CPU time, cosine to the first.

    PYTHONPATH=src python benchmarks/experiments/graph_ab.py TEXTS.json GRAPH.onnx [GRAPH …]
    (AVX2-only: LD_PRELOAD=avx2_only.so from benchmarks/cpu/avx2_only.c)

TEXTS.json: a JSON list of chunk texts (e.g. `embed_throughput.corpus_chunks`). One text per
call, two threads, ROUNDS (env, default 2) rounds interleaved, best round of each graph.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from citewise.embed.minilm.session import MiniLMRuntime
from citewise.embed.minilm.weights import bundled_model_dir


def main(argv: list[str]) -> int:
    texts = json.loads(Path(argv[0]).read_text())
    graphs = argv[1:]
    tok = bundled_model_dir() / "tokenizer.json"
    runtimes = {g: MiniLMRuntime(Path(g), tok, threads=2) for g in graphs}
    encoded = runtimes[graphs[0]].tokenize(texts)
    vectors: dict[str, np.ndarray] = {}
    wall: dict[str, list[float]] = {g: [] for g in graphs}
    cpu: dict[str, list[float]] = {g: [] for g in graphs}
    for _ in range(int(os.environ.get("ROUNDS", "2"))):
        for g, rt in runtimes.items():
            rt.run(*rt.pad([encoded[0]]))
            started, cpu_started = time.perf_counter(), time.process_time()
            out = [rt.run(*rt.pad([e]))[0] for e in encoded]
            wall[g].append(time.perf_counter() - started)
            cpu[g].append(time.process_time() - cpu_started)
            vectors[g] = np.stack(out)
    print("load", os.getloadavg())
    for g in graphs:
        cos = np.sum(vectors[g] * vectors[graphs[0]], axis=1)
        w, c = min(wall[g]), min(cpu[g])
        print(
            f"{Path(g).name:40s} wall {len(texts) / w:6.1f}/s x{min(wall[graphs[0]]) / w:.2f}"
            f"  cpu {len(texts) / c:6.1f}/s x{min(cpu[graphs[0]]) / c:.2f}"
            f"  cos min {cos.min():.4f} mean {cos.mean():.4f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
