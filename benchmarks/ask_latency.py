"""`ask` latency of several commits on one store, alternated question by question in one run,
so the machine's load falls on all alike (issue 29: "ask p50 on the dev set no worse than
today + 50 ms").

    .venv/bin/python benchmarks/ask_latency.py REF REF [REF ...] --store DIR [--rounds 2] \
        [--questions benchmarks/check_sets/dev.jsonl] [--out FILE]

Each REF is a commit (a temporary git worktree) or a checkout folder, as for
`compare_commits.py`. Each gets its own copy of the store and one long-lived process with
its `src` first on the path, which builds an `Assistant` with the default (extractive)
answerer, asks a warm-up question, then times `ask` (the whole flow, each question in a
fresh session) for the questions the parent sends it one at a time. The parent sends each
single-turn question to every one, the order rotating from question to question;
round 1 meets every question for the first time, later rounds find the embedder's kept
vectors. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

from query_path import copy_store

HERE = Path(__file__).resolve().parent
DEV = HERE / "check_sets" / "dev.jsonl"


def serve(data_dir: Path) -> None:
    """In a checkout's process: times `ask` for each question read from stdin."""
    import time

    from citewise.assistant import Assistant
    from citewise.chat.memory import SQLiteMemory

    with (
        tempfile.TemporaryDirectory() as tmp,
        Assistant(data_dir=data_dir, memory=SQLiteMemory(Path(tmp) / "memory.db")) as chat,
    ):
        chat.ask("warm up: what is this about?")
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            question = json.loads(line)["question"]
            started = time.perf_counter()
            chat.ask(question)
            ms = (time.perf_counter() - started) * 1000
            print(json.dumps({"ms": round(ms, 2)}), flush=True)


def questions(path: Path) -> list[str]:
    items = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [i["question"] for i in items if not i.get("turns") and i.get("question", "").strip()]


class Timer:
    """One checkout's long-lived `serve` process."""

    def __init__(self, label: str, checkout: Path, data_dir: Path) -> None:
        self.label = label
        env = {**os.environ, "PYTHONPATH": str(checkout / "src"), "HF_HUB_OFFLINE": "1"}
        self._proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(data_dir)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        self._read()  # ready

    def _read(self) -> dict[str, Any]:
        out: IO[str] | None = self._proc.stdout
        assert out is not None
        line = out.readline()
        if not line:
            raise SystemExit(f"{self.label}: the timing process ended (exit {self._proc.wait()})")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def ask(self, question: str) -> float:
        stdin = self._proc.stdin
        assert stdin is not None
        stdin.write(json.dumps({"question": question}) + "\n")
        stdin.flush()
        return float(self._read()["ms"])

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def summary(samples: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(samples), 1),
        "p99_ms": round(pct(samples, 99), 1),
        "mean_ms": round(statistics.fmean(samples), 1),
        "n": len(samples),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("refs", nargs="*", help="commits or checkout folders")
    parser.add_argument("--store", type=Path, help="a data dir (copied per checkout)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--questions", type=Path, default=DEV)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)  # one checkout's process
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    if len(args.refs) < 2 or not args.store:
        parser.error("two REFs or more and --store are needed")
    from compare_commits import checked_out  # not in a checkout's process: its own code

    qs = questions(args.questions)
    uptime = [subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()]
    with tempfile.TemporaryDirectory(prefix="citewise-ask-latency-") as tmp, ExitStack() as stack:
        work = Path(tmp)
        timers: list[Timer] = []
        for n, ref in enumerate(args.refs):
            label = f"{n}-{Path(ref).resolve().name if Path(ref).is_dir() else ref}"
            checkout = stack.enter_context(checked_out(label, ref, work))
            copy_store(args.store, work / f"{label}-data")
            timers.append(Timer(label, checkout.path, work / f"{label}-data"))
            stack.callback(timers[-1].close)
        samples: dict[str, list[list[float]]] = {t.label: [] for t in timers}
        for r in range(args.rounds):
            for t in timers:
                samples[t.label].append([])
            for i, question in enumerate(qs):
                turn = (i + r) % len(timers)
                order = timers[turn:] + timers[:turn]
                for t in order:
                    samples[t.label][r].append(t.ask(question))
            print(f"round {r + 1} done", file=sys.stderr, flush=True)
    uptime.append(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    report = {
        "refs": args.refs, "store": str(args.store),
        "questions": len(qs), "rounds": args.rounds, "uptime": uptime,
        "runs": {
            label: {
                **{f"round {r + 1}": summary(s) for r, s in enumerate(rounds)},
                "all": summary([x for s in rounds for x in s]),
            }
            for label, rounds in samples.items()
        },
    }  # fmt: skip
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
