"""Load on `citewise serve`: at each concurrency level, N clients asking dev-set questions
for a fixed time (extractive answers), p50/p99 per level; optionally several source trees
side by side in one run (e.g. main before a change and after), beside the CLI's `ask`.

    .venv/bin/python benchmarks/load_serve.py [--levels 1,10,50] [--seconds 60] [--store DIR]
        [--tree before=/tmp/old-checkout --tree after=.]

A client refused with 429 waits its Retry-After and asks again (counted as `refused`; the
latency it reports includes the wait); any other failure is an error.

The store: `--store DIR` (a data dir holding citewise.db), else the dev corpus's eval store
under ~/.citewise/eval/html-*/ when present, else a store built here from a slice of the
Python docs (and the output says which). The store is copied first (SQLite backup API), so
the run never writes to anyone's store. Prints a table; JSON in benchmarks/results/.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CITEWISE = str(Path(sys.executable).parent / "citewise")
QUESTIONS = HERE / "check_sets" / "dev.jsonl"
# the stores `citewise eval` builds for the dev corpus (default data dir)
DEV_STORES = sorted((Path.home() / ".citewise" / "eval").glob("html-*/citewise.db"))
PY_DOCS = Path("/usr/share/doc/python3.11/html")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def copy_store(source_db: Path, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{source_db}?mode=ro", uri=True)
    dst = sqlite3.connect(data_dir / "citewise.db")
    src.backup(dst)
    dst.close()
    src.close()


def prepare(args: argparse.Namespace, data_dir: Path) -> str:
    if args.store:
        copy_store(Path(args.store) / "citewise.db", data_dir)
        return f"copy of {args.store}"
    if DEV_STORES:
        copy_store(DEV_STORES[0], data_dir)
        return f"copy of the dev-corpus eval store {DEV_STORES[0].parent.name}"
    files = sorted((PY_DOCS / "library").glob("*.html"))[:60]
    subprocess.run([CITEWISE, "ingest", *map(str, files), "--data-dir", str(data_dir)],
                   check=True, capture_output=True)  # fmt: skip
    return f"{len(files)} pages of the Python docs (library/), built here: NOT the whole dev corpus"


def questions() -> list[str]:
    return [json.loads(line)["question"] for line in QUESTIONS.read_text().splitlines() if line]


def cli_ask(data_dir: Path, qs: list[str], env: dict[str, str]) -> dict[str, float]:
    """`citewise ask --json` as a user runs it: a new process each time (wall clock), and
    the flow's own total from its JSON."""
    walls, totals = [], []
    for q in qs:
        started = time.perf_counter()
        out = subprocess.run([CITEWISE, "ask", q, "--json", "--data-dir", str(data_dir)],
                             check=True, capture_output=True, text=True, env=env)  # fmt: skip
        walls.append((time.perf_counter() - started) * 1000)
        totals.append(float(json.loads(out.stdout)["timings_ms"]["total"]))
    return {
        "questions": len(qs),
        "process_wall_p50_ms": round(statistics.median(walls), 1),
        "flow_total_p50_ms": round(statistics.median(totals), 1),
        "flow_total_p99_ms": round(pct(totals, 99), 1),
    }


def server_cpu_seconds(proc: psutil.Process) -> float:
    """The server's CPU time (all its threads): per answer, a cost other jobs' load on the
    machine changes far less than they change latency."""
    times = proc.cpu_times()
    return float(times.user + times.system)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def load(
    url: str, qs: list[str], clients: int, seconds: float, pid: int
) -> dict[str, object]:
    latencies: list[float] = []
    errors: list[str] = []
    refused: list[int] = []
    rss: list[int] = []
    proc = psutil.Process(pid)
    deadline = time.monotonic() + seconds

    async def ask(http: httpx.AsyncClient, q: str) -> bool:
        while True:
            r = await http.post("/chat/", json={"message": q})
            if r.status_code == 429:
                refused.append(1)
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                continue
            if r.status_code != 200 or "answer" not in r.json():
                errors.append(f"{r.status_code}: {r.text[:200]}")
                return False
            return True

    async def client(i: int, http: httpx.AsyncClient) -> None:
        n = i
        while time.monotonic() < deadline:
            q = qs[n % len(qs)]
            n += clients
            started = time.perf_counter()
            try:
                if not await ask(http, q):
                    continue
            except httpx.HTTPError as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
                continue
            latencies.append((time.perf_counter() - started) * 1000)

    async def sample() -> None:
        while time.monotonic() < deadline:
            rss.append(proc.memory_info().rss)
            await asyncio.sleep(1)

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as http:
        started, cpu_before = time.monotonic(), server_cpu_seconds(proc)
        await asyncio.gather(sample(), *(client(i, http) for i in range(clients)))
        elapsed, cpu = time.monotonic() - started, server_cpu_seconds(proc) - cpu_before
    return {
        "clients": clients, "seconds": round(elapsed, 1), "requests": len(latencies),
        "errors": len(errors), "first_errors": errors[:3], "refused_429": len(refused),
        "throughput_rps": round(len(latencies) / elapsed, 2),
        "p50_ms": round(pct(latencies, 50), 1) if latencies else None,
        "p99_ms": round(pct(latencies, 99), 1) if latencies else None,
        "max_ms": round(max(latencies), 1) if latencies else None,
        "server_rss_peak_mb": round(max(rss) / 2**20, 1) if rss else None,
        "server_cpu_ms_per_answer": round(cpu * 1000 / len(latencies), 1) if latencies else None,
    }  # fmt: skip


def wait_healthy(url: str, server: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if server.poll() is not None:
            raise RuntimeError("serve exited before answering /health")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("serve did not answer /health")


def serve_levels(
    tree: Path,
    data_dir: Path,
    qs: list[str],
    args: argparse.Namespace,
    env: dict[str, str],
    extra_env: dict[str, str],
) -> dict[str, object]:
    """`citewise serve` from `tree`'s sources, loaded at each level in turn."""
    port = free_port()
    tree_env = {**env, "PYTHONPATH": str(tree / "src"), **extra_env}
    log = (data_dir.parent / f"serve-{port}.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "citewise.cli", "serve", "--port", str(port),
         "--data-dir", str(data_dir), "--log-level", "warning"], env=tree_env, stdout=log,
        stderr=subprocess.STDOUT, cwd=tree,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server)
        httpx.post(f"{url}/chat/", json={"message": qs[0]}, timeout=120)  # warm-up
        levels = []
        for clients in args.levels:
            seconds = args.seconds if clients == max(args.levels) else args.short_seconds
            level = asyncio.run(load(url, qs, clients, seconds, server.pid))
            level["load_avg_1m"] = round(os.getloadavg()[0], 2)
            print(f"{tree.name} {extra_env}: {json.dumps(level)}", file=sys.stderr)
            levels.append(level)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        log.close()
    return {"tree": str(tree), "env": extra_env, "levels": levels}


def table(runs: dict[str, dict[str, object]]) -> str:
    head = "| tree | clients | s | requests | errors | 429 | rps | p50 ms | p99 ms | CPU ms/ans |"
    lines = [f"{head} load |", "| --- |" + " ---: |" * 10]
    for name, run in runs.items():
        for lv in run["levels"]:  # type: ignore[attr-defined]
            lines.append(
                f"| {name} | {lv['clients']} | {lv['seconds']} | {lv['requests']} | "
                f"{lv['errors']} | {lv['refused_429']} | {lv['throughput_rps']} | "
                f"{lv['p50_ms']} | {lv['p99_ms']} | {lv['server_cpu_ms_per_answer']} | "
                f"{lv['load_avg_1m']} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1,10,50", help="client counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=60, help="at the highest level")
    parser.add_argument("--short-seconds", type=float, default=20, help="at the other levels")
    parser.add_argument("--store", help="a data dir holding citewise.db (copied)")
    parser.add_argument(
        "--tree", action="append", default=[], help="NAME=DIR: serve DIR/src (repeatable)"
    )
    parser.add_argument(
        "--tree-env", action="append", default=[], help="NAME:KEY=VALUE for tree NAME's serve"
    )
    parser.add_argument("--cli-questions", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "load_serve.json")
    args = parser.parse_args()
    args.levels = [int(n) for n in args.levels.split(",")]
    trees = dict(t.split("=", 1) for t in args.tree) or {"this": str(ROOT)}
    qs = questions()
    # extractive answers (no LLM), and no per-user rate limit in front of the load
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "CITEWISE_RATE_LIMIT": ""}
    env.pop("CITEWISE_LLM", None)
    with tempfile.TemporaryDirectory(prefix="citewise-load-") as tmp:
        data_dir = Path(tmp) / "data"
        store = prepare(args, data_dir)
        print(f"store: {store}", file=sys.stderr)
        cli = cli_ask(data_dir, qs[: args.cli_questions], env) if args.cli_questions else None
        extra: dict[str, dict[str, str]] = {}
        for spec in args.tree_env:
            name, _, setting = spec.partition(":")
            key, _, value = setting.partition("=")
            extra.setdefault(name, {})[key] = value
        runs = {
            name: serve_levels(Path(tree).resolve(), data_dir, qs, args, env, extra.get(name, {}))
            for name, tree in trees.items()
        }
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    figures = {"store": store, "cli_ask": cli, "serve": runs, "cpu_count": os.cpu_count(),
               "uptime": uptime}  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))
    print(table(runs))


if __name__ == "__main__":
    main()
