"""The hybrid query path, stage by stage (embed, keyword, vector, fuse, total), on the dev
questions over a copy of a store; several source trees side by side in one run, with a check
that every tree returns the same hits in the same order.

    .venv/bin/python benchmarks/query_path.py --store DIR [--tree before=DIR --tree after=.]
        [--repeat 5] [--rounds 3]

Pass 1 embeds each question (a cold query embedding, and the first sight of its words); the
later passes find the question's vector in the embedder's query cache, as a repeated or
follow-up question does. Each tree runs in its own process (its `src` first on the path),
the trees one after the other, alternating for `--rounds` rounds (a fresh process each
time); the figures pool every round's samples.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
QUESTIONS = HERE / "check_sets" / "dev.jsonl"
STAGES = ("embed_query", "keyword", "vector", "hybrid", "fuse", "total")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def questions() -> list[str]:
    return [json.loads(line)["question"] for line in QUESTIONS.read_text().splitlines() if line]


def measure(data_dir: Path, repeat: int, k: int) -> dict[str, object]:
    """In this process: per-stage timings and each question's hits (chunk ids, in order)."""
    from citewise.assistant import Assistant
    from citewise.config import load_settings

    assistant = Assistant(settings=load_settings(data_dir=data_dir))
    qs = questions()
    assistant.search(qs[0], k=k)  # loads the model and the vector matrix
    cold: dict[str, list[float]] = {s: [] for s in STAGES}
    warm: dict[str, list[float]] = {s: [] for s in STAGES}
    hits: dict[str, list[int]] = {}
    for n in range(repeat):
        for q in qs:
            result = assistant.search(q, k=k)
            timings = result.timings_ms
            for stage in STAGES:
                value = (
                    timings.get(stage, timings.get("hybrid_sql"))
                    if stage == "hybrid"
                    else timings.get(stage)
                )
                if value is not None:
                    (cold if n == 0 else warm)[stage].append(float(value))
            hits[q] = [h.chunk_id for h in result.hits]
    assistant.close()

    return {"questions": len(qs), "cold": cold, "warm": warm, "hits": hits}


def summary(times: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {
        s: {"p50_ms": round(statistics.median(v), 3), "p99_ms": round(pct(v, 99), 3)}
        for s, v in times.items()
        if v
    }


def copy_store(source: Path, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{source / 'citewise.db'}?mode=ro", uri=True)
    dst = sqlite3.connect(data_dir / "citewise.db")
    src.backup(dst)
    dst.close()
    src.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, required=True, help="a data dir (copied)")
    parser.add_argument("--tree", action="append", default=[], help="NAME=DIR (repeatable)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=1, help="the trees alternate this often")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # one tree's run
    parser.add_argument("--out", type=Path, default=HERE / "results" / "query_path.json")
    args = parser.parse_args()
    if args.measure:
        args.measure.write_text(json.dumps(measure(args.store, args.repeat, args.k)))
        return
    trees = dict(t.split("=", 1) for t in args.tree) or {"this": str(ROOT)}
    samples: dict[str, dict[str, dict[str, list[float]]]] = {
        n: {"cold": {s: [] for s in STAGES}, "warm": {s: [] for s in STAGES}} for n in trees
    }
    hits: dict[str, list[object]] = {n: [] for n in trees}
    uptime = [subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()]
    with tempfile.TemporaryDirectory(prefix="citewise-query-") as tmp:
        data_dir = Path(tmp) / "data"
        copy_store(args.store, data_dir)
        for _ in range(args.rounds):
            for name, tree in trees.items():
                out = Path(tmp) / f"{name}.json"
                env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve() / "src"),
                       "HF_HUB_OFFLINE": "1"}  # fmt: skip
                subprocess.run(
                    [sys.executable, __file__, "--store", str(data_dir), "--measure", str(out),
                     "--repeat", str(args.repeat), "--k", str(args.k)], check=True, env=env,
                )  # fmt: skip
                run = json.loads(out.read_text())
                hits[name].append(run["hits"])
                for kind in ("cold", "warm"):
                    for stage, values in run[kind].items():
                        samples[name][kind][stage].extend(values)
    uptime.append(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    names = list(trees)
    first = hits[names[0]][0]
    same = {n: all(h == first for h in hits[n]) for n in names}
    runs = {
        n: {"questions": len(first), "cold": summary(samples[n]["cold"]),
            "warm": summary(samples[n]["warm"])}
        for n in names
    }  # fmt: skip
    figures = {
        "store": str(args.store), "uptime": uptime, "rounds": args.rounds,
        "same_hits_as_" + names[0]: same, "runs": runs,
    }  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))
    print("| tree | pass | " + " | ".join(STAGES) + " |")
    print("| --- | --- |" + " ---: |" * len(STAGES))
    for n, r in runs.items():
        for kind in ("cold", "warm"):
            cells = [r[kind].get(s, {}).get("p50_ms", "–") for s in STAGES]  # type: ignore[attr-defined]
            print(f"| {n} | {kind} p50 ms | " + " | ".join(map(str, cells)) + " |")


if __name__ == "__main__":
    main()
