"""Embedding throughput of the bundled MiniLM: fp32 and int8 recipes side by side, against the
model's peak.

    HF_HUB_OFFLINE=1 PYTHONPATH=src .venv/bin/python benchmarks/embed_throughput.py \\
        [--corpus /usr/share/doc/python3.11/html] [--chunks 2048] [--rounds 3] \\
        [--sides fp32,portable,uniform] [--avx2-only] [--no-peak] [--ingest] [--ingest-files N] \\
        [--json benchmarks/results/embed_throughput.json]

Texts: --chunks chunks, as ingest makes them, evenly spaced over ~120 files of the corpus.
For each side (`fp32`, or an int8 recipe's name; `l3-` before either: the 3-layer
student, `minilm-l3`), interleaved round by round (the machine is
shared, so the sides see the same load), with the embedder's default threads and sessions:

- embedding alone: chunks/s of `embed_documents` over the texts (wall), and chunks per
  CPU-second of the process (less sensitive to other load; ×cores ≈ a quiet machine's figure);
  the summary gives each figure's median and best round (on a shared machine the best of
  several short rounds is the nearest to a quiet one's);
- peak: the same token lengths as ideal batches (equal-length rows, no padding, no
  tokenising, every core busy), best of batch sizes 1 and 32: the model's int8 ceiling on
  these texts; the share is embedding alone / peak from the same round, by wall time and by
  CPU time (the latter is the steadier on a shared machine); --no-peak skips it (shorter
  rounds);
- with --ingest: a whole first ingest of the corpus (or --ingest-files files spread over it)
  into a fresh store, each in its own process (`CITEWISE_INT8_RECIPE` selects the recipe):
  chunks/s and peak RSS (the process's VmHWM).

`uptime`'s load average is recorded beside every figure, and each side's worst and mean
cosine to the first side's vectors (the fp32 graph's, when it is first).

--avx2-only runs the whole benchmark again in a process that sees no AVX-512, VNNI or AMX
(`benchmarks/cpu/avx2_only.c`, compiled with cc, preloaded: CPUID faulting masks those
flags, so ONNX Runtime's MLAS picks its AVX2 kernels, which then run natively).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
DEV_CORPUS = Path("/usr/share/doc/python3.11/html")
PEAK_BATCHES = (1, 32)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def corpus_chunks(corpus: Path, count: int) -> list[str]:
    """Chunk texts as ingest embeds them, spread over the corpus (every k-th chunk)."""
    from citewise.embed.minilm.runtime import MiniLMEmbedder
    from citewise.ingest.chunking import ChunkingOptions, chunk_document
    from citewise.ingest.parsers import is_supported, parse_file

    counter = MiniLMEmbedder(variant="fp32", sessions=1)
    texts: list[str] = []
    files = sorted(p for p in corpus.rglob("*") if p.is_file() and is_supported(p))
    for path in files[:: max(1, len(files) // 120)]:
        try:
            parsed = parse_file(path)
        except Exception:  # a file the parser refuses has no chunks
            continue
        chunks = chunk_document(parsed, counter.count_tokens, ChunkingOptions())  # type: ignore[arg-type]
        texts.extend(c.embed_text for c in chunks.children)
    counter.close()
    step = max(1, len(texts) // count)
    return texts[::step][:count]


def timed(work: Callable[[], object], items: int) -> dict[str, float]:
    cpu, wall = cpu_seconds(), time.perf_counter()
    work()
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    return {"chunks_per_s": round(items / wall, 1), "chunks_per_cpu_s": round(items / cpu, 1)}


def embed_alone(embedder: object, texts: list[str]) -> dict[str, float]:
    from citewise.embed.minilm.runtime import MiniLMEmbedder

    assert isinstance(embedder, MiniLMEmbedder)
    embedder.embed_documents(texts[:8])  # warm the sessions
    return timed(lambda: embedder._embed_all(texts), len(texts))


def peak(embedder: object, lengths: list[int]) -> dict[str, float]:
    """Best throughput on equal-length batches of the texts' token lengths, every core busy."""
    from citewise.embed.minilm.runtime import MiniLMEmbedder, length_buckets

    assert isinstance(embedder, MiniLMEmbedder)
    runtime = embedder._runtime
    best: dict[str, float] = {}
    with ThreadPoolExecutor(runtime.sessions) as pool:
        for size in PEAK_BATCHES:
            # every batch of one length, filled to `size` rows where the texts allow
            batches = [
                np.full((len(rows), lengths[rows[0]]), 2000, dtype=np.int64)
                for rows in length_buckets(lengths, size)
            ]
            runtime.run(batches[0], np.ones_like(batches[0]))

            def run_all(batches: list[np.ndarray] = batches) -> None:
                list(pool.map(lambda ids: runtime.run(ids, np.ones_like(ids)), batches))

            got = timed(run_all, len(lengths)) | {"batch": size}
            if got["chunks_per_s"] > best.get("chunks_per_s", 0.0):
                best = got
    return best


def avx2_only_library() -> Path:
    """The CPUID-masking preload library, compiled once into the temp dir."""
    import tempfile

    source = ROOT / "benchmarks" / "cpu" / "avx2_only.c"
    built = Path(tempfile.gettempdir()) / "citewise-avx2-only.so"
    if not built.is_file() or built.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(built), str(source)], check=True)
    return built


def embedder_for(side: str) -> object:
    from citewise.embed.minilm.recipe import recipe_named
    from citewise.embed.minilm.runtime import MiniLMEmbedder

    # "l3-<side>": the 3-layer student (`minilm-l3`) by that variant or recipe
    student, side = side.startswith("l3-"), side.removeprefix("l3-")
    if side == "fp32":
        return MiniLMEmbedder(variant="fp32", student=student)
    return MiniLMEmbedder(recipe=recipe_named(side), student=student)


def ingest_once(corpus: Path, recipe: str, files: int) -> dict[str, object]:
    """A first ingest into a fresh store, in its own process."""
    script = (
        "import json, sys, tempfile\n"
        "from pathlib import Path\n"
        "from citewise.assistant import Assistant\n"
        "from citewise.assistant.inside import inside\n"
        "corpus, files = Path(sys.argv[1]), int(sys.argv[2])\n"
        "from citewise.ingest.parsers import is_supported\n"
        "paths = sorted(p for p in corpus.rglob('*') if p.is_file() and is_supported(p))\n"
        "paths = paths[:: max(1, len(paths) // files)][:files] if files else [corpus]\n"
        "with Assistant(data_dir=Path(tempfile.mkdtemp(prefix='embed-tp-'))) as a:\n"
        "    inside(a).embedder()\n"
        "    r = a.ingest(paths)\n"
        "status = Path('/proc/self/status').read_text()\n"
        "hwm = next(int(l.split()[1]) for l in status.splitlines() if l.startswith('VmHWM'))\n"
        "print(json.dumps({'chunks': r.chunks_embedded, 'seconds': round(r.seconds, 1),\n"
        "    'chunks_per_s': round(r.chunks_embedded / r.seconds, 1),\n"
        "    'peak_rss_mb': round(hwm / 1024), 'files': len(r.outcomes)}))\n"
    )
    env = os.environ | {"CITEWISE_INT8_RECIPE": recipe, "PYTHONPATH": str(ROOT / "src")}
    if recipe == "fp32":
        env = os.environ | {"CITEWISE_EMBEDDER": "minilm:fp32", "PYTHONPATH": str(ROOT / "src")}
    before = load()
    done = subprocess.run(
        [sys.executable, "-c", script, str(corpus), str(files)],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    figures: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures | {"load_before": before, "load_after": load()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEV_CORPUS)
    parser.add_argument("--chunks", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sides", default="fp32,portable,uniform", help="fp32 or recipes")
    parser.add_argument("--avx2-only", action="store_true", help="emulate an AVX2-only CPU")
    parser.add_argument("--no-peak", action="store_true", help="skip the ideal-batch figures")
    parser.add_argument("--ingest", action="store_true", help="also time whole first ingests")
    parser.add_argument("--ingest-files", type=int, default=0, help="0: the whole corpus")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.avx2_only and "LD_PRELOAD" not in os.environ:
        env = os.environ | {"LD_PRELOAD": str(avx2_only_library())}
        rest = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--avx2-only"]
        return subprocess.run([sys.executable, __file__, *rest], env=env).returncode

    texts = corpus_chunks(args.corpus, args.chunks)
    sides = [side.strip() for side in args.sides.split(",") if side.strip()]
    embedders = {side: embedder_for(side) for side in sides}
    first = embedders[sides[0]]
    lengths = [len(ids) for ids in first._runtime.tokenize(texts)]  # type: ignore[attr-defined]
    cpu = "avx2-emulated" if "avx2" in os.environ.get("LD_PRELOAD", "") else "native"
    print(
        f"{len(texts)} chunks, {statistics.mean(lengths):.0f} tokens on average "
        f"(specials included); sides: {', '.join(sides)}; cpu: {cpu}; load {load()}",
        flush=True,
    )
    rounds: list[dict[str, object]] = []
    vectors: dict[str, np.ndarray] = {}
    for number in range(args.rounds):
        for side, embedder in embedders.items():
            before = load()
            alone = embed_alone(embedder, texts)
            vectors[side] = embedder._embed_all(texts)  # type: ignore[attr-defined]
            cosines = np.sum(vectors[side] * vectors[sides[0]], axis=1)
            row = {"round": number + 1, "side": side, "cpu": cpu, "embed": alone}
            if not args.no_peak:
                best = peak(embedder, lengths)
                row |= {
                    "peak": best,
                    "share_of_peak": round(alone["chunks_per_s"] / best["chunks_per_s"], 3),
                    "share_of_peak_cpu": round(
                        alone["chunks_per_cpu_s"] / best["chunks_per_cpu_s"], 3
                    ),
                }
            row |= {
                "cosine_to_first": {
                    "min": round(float(cosines.min()), 4), "mean": round(float(cosines.mean()), 4)
                },
                "load_before": before, "load_after": load(),
            }  # fmt: skip
            rounds.append(row)
            print(json.dumps(row), flush=True)
        if args.ingest:
            for side in embedders:
                got = ingest_once(args.corpus, side, args.ingest_files)
                row = {"round": number + 1, "side": side, "cpu": cpu, "ingest": got}
                rounds.append(row)
                print(json.dumps(row), flush=True)
    summary = summarise(rounds, sides)
    print(json.dumps(summary, indent=2))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"rounds": rounds, "summary": summary}, indent=2) + "\n")
    return 0


def summarise(rounds: list[dict[str, object]], sides: list[str]) -> dict[str, dict[str, float]]:
    """Per side, the median and the best over rounds of each figure, and each side's speed-up
    on the first (median on median, best on best)."""
    out: dict[str, dict[str, float]] = {}
    for side in sides:
        mine = [r for r in rounds if r["side"] == side]
        figures: dict[str, list[float]] = {}
        for row in mine:
            for group in ("embed", "peak", "ingest"):
                values = row.get(group)
                if isinstance(values, dict):
                    for key in ("chunks_per_s", "chunks_per_cpu_s"):
                        if key in values:
                            figures.setdefault(f"{group}_{key}", []).append(float(values[key]))
            for key in ("share_of_peak", "share_of_peak_cpu"):
                if key in row:
                    figures.setdefault(key, []).append(float(str(row[key])))
        out[side] = {key: round(statistics.median(v), 3) for key, v in figures.items()}
        out[side] |= {f"best_{key}": max(v) for key, v in figures.items() if "chunks" in key}
        cosine = [r["cosine_to_first"] for r in mine if isinstance(r.get("cosine_to_first"), dict)]
        if cosine:
            out[side]["cosine_min"] = min(float(c["min"]) for c in cosine)  # type: ignore[index]
    for side in sides:
        for figure in ("embed_chunks_per_s", "embed_chunks_per_cpu_s", "ingest_chunks_per_s"):
            for key in (figure, f"best_{figure}"):
                if key in out[side] and key in out[sides[0]]:
                    out[side][f"x_{key}"] = round(out[side][key] / out[sides[0]][key], 2)
    return out


if __name__ == "__main__":
    sys.exit(main())
