"""Two `citewise worker` processes on one PostgreSQL and a real redis-server: every file is
stored once, even when it is sent twice at once; each worker takes jobs; SIGTERM stops
them cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from citewise.store.registry import open_store
from citewise.workers.queue import IngestQueue

pytestmark = pytest.mark.integration
FILES = 16


def _start_worker(tmp: Path, n: int, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], Path]:
    log = tmp / f"worker{n}.log"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from citewise.cli import main; main()", "worker"],
        env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
    )  # fmt: skip
    return proc, log


def _wait_consuming(procs: list[tuple[subprocess.Popen[bytes], Path]]) -> None:
    deadline = time.monotonic() + 60
    while not all("consuming" in log.read_text(errors="replace") for _, log in procs):
        for proc, log in procs:
            assert proc.poll() is None, log.read_text(errors="replace")
        assert time.monotonic() < deadline, "workers did not start"
        time.sleep(0.1)


def test_two_workers_store_each_file_once(
    tmp_path: Path, redis_url: str, postgres_url: str
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(FILES):
        words = " ".join(f"topic{i} word{j}" for j in range(150 + 20 * i))
        (docs / f"note{i:02}.md").write_text(f"# Note {i}\n\n{words}\n")
    env = {
        **os.environ, "CITEWISE_STORE": postgres_url, "CITEWISE_QUEUE": redis_url,
        "CITEWISE_EMBEDDER": "hashing", "CITEWISE_DATA_DIR": str(tmp_path / "data"),
        "CITEWISE_LOG": "INFO",
    }  # fmt: skip
    workers = [_start_worker(tmp_path, n, env) for n in (1, 2)]
    queue = IngestQueue(redis_url)
    try:
        _wait_consuming(workers)
        first = queue.submit([docs], "team")
        again = queue.submit([docs], "team")  # the same files at the same time
        outcomes = queue.wait(first, timeout=180) + queue.wait(again, timeout=180)
        letters = queue.dead_letters()
    finally:
        queue.close()
        for proc, _ in workers:
            proc.send_signal(signal.SIGTERM)
        codes = [proc.wait(timeout=90) for proc, _ in workers]
    assert codes == [0, 0]
    assert len(outcomes) == 2 * FILES and letters == []
    per_source = Counter(o["source"] for o in outcomes if o["status"] == "ingested")
    assert set(per_source) == {f"note{i:02}.md" for i in range(FILES)}
    assert len({o["worker"] for o in outcomes}) == 2
    store = open_store(postgres_url)
    try:
        docs_stored = store.list_documents("team")
        stats = store.stats()
    finally:
        store.close()
    assert sorted(d.source for d in docs_stored) == sorted(per_source)
    assert all(d.status == "ready" for d in docs_stored)
    assert stats["chunks"] == sum(d.chunk_count for d in docs_stored) == stats["vectors"]
