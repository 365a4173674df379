"""Load on `citewise serve`: N concurrent clients asking dev-set questions for a fixed time
(extractive answers), beside the CLI's `ask` latency on the same store in the same run.

    .venv/bin/python benchmarks/load_serve.py [--clients 50] [--seconds 60] [--store DIR]

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def load(
    url: str, qs: list[str], clients: int, seconds: float, pid: int
) -> dict[str, object]:
    latencies: list[float] = []
    errors: list[str] = []
    rss: list[int] = []
    proc = psutil.Process(pid)
    deadline = time.monotonic() + seconds

    async def client(i: int, http: httpx.AsyncClient) -> None:
        n = i
        while time.monotonic() < deadline:
            q = qs[n % len(qs)]
            n += clients
            started = time.perf_counter()
            try:
                r = await http.post("/chat/", json={"message": q})
                if r.status_code != 200 or "answer" not in r.json():
                    errors.append(f"{r.status_code}: {r.text[:200]}")
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
        started = time.monotonic()
        await asyncio.gather(sample(), *(client(i, http) for i in range(clients)))
        elapsed = time.monotonic() - started
    return {
        "clients": clients, "seconds": round(elapsed, 1), "requests": len(latencies),
        "errors": len(errors), "first_errors": errors[:3],
        "throughput_rps": round(len(latencies) / elapsed, 2),
        "p50_ms": round(pct(latencies, 50), 1) if latencies else None,
        "p99_ms": round(pct(latencies, 99), 1) if latencies else None,
        "server_rss_peak_mb": round(max(rss) / 2**20, 1) if rss else None,
        "server_rss_end_mb": round(rss[-1] / 2**20, 1) if rss else None,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--store", help="a data dir holding citewise.db (copied)")
    parser.add_argument("--cli-questions", type=int, default=10)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "load_serve.json")
    args = parser.parse_args()
    qs = questions()
    # extractive answers (no LLM), and no per-user rate limit in front of the load
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "CITEWISE_RATE_LIMIT": ""}
    env.pop("CITEWISE_LLM", None)
    with tempfile.TemporaryDirectory(prefix="citewise-load-") as tmp:
        data_dir = Path(tmp) / "data"
        store = prepare(args, data_dir)
        print(f"store: {store}", file=sys.stderr)
        cli = cli_ask(data_dir, qs[: args.cli_questions], env)
        print(f"cli ask: {cli}", file=sys.stderr)
        port = free_port()
        log = (Path(tmp) / "serve.log").open("w")
        server = subprocess.Popen(
            [CITEWISE, "serve", "--port", str(port), "--data-dir", str(data_dir),
             "--log-level", "warning"], env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                try:
                    if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.2)
            httpx.post(f"{url}/chat/", json={"message": qs[0]}, timeout=120)  # warm-up
            one = []  # one client, one question at a time: the latency without queueing
            for q in qs[: args.cli_questions]:
                started = time.perf_counter()
                httpx.post(f"{url}/chat/", json={"message": q}, timeout=120).raise_for_status()
                one.append((time.perf_counter() - started) * 1000)
            print(f"serve, one client: p50 {statistics.median(one):.0f} ms", file=sys.stderr)
            result = asyncio.run(load(url, qs, args.clients, args.seconds, server.pid))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    figures = {"store": store, "cli_ask": cli,
               "serve_one_client_p50_ms": round(statistics.median(one), 1), "serve": result,
               "cpu_count": os.cpu_count(), "load_avg_1m": os.getloadavg()[0]}  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
