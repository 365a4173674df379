"""kill -9 of an ingest at 20 points — while parsing, before the commit of a document's
insert, of a batch of vectors, of the swap of a replacement, of a prune — leaves a store
whose tables and indexes agree, and the next run completes it."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hardening.consistency import index_problems, table_problems, vector_problems, write_file
from hardening.crash_child import child_script

pytestmark = pytest.mark.slow

KILLS = 20
PHASES = ("parse", "insert", "embed", "swap", "prune")

# The child ingests with --prune and stops, frozen, at the n-th occurrence of its phase:
# inside a parse, or inside an open write transaction just before its COMMIT. It then tells
# the parent, which kills it with SIGKILL.
SQLITE_HOOK = """
class Conn:
    def __init__(self, conn):
        self._conn = conn
    def __getattr__(self, name):
        return getattr(self._conn, name)
    def execute(self, sql, *args):
        if sql == "BEGIN IMMEDIATE":
            local.deleted = False
        elif sql.startswith("DELETE FROM documents"):
            local.deleted = True
        elif sql == "COMMIT":
            before_commit()
        return self._conn.execute(sql, *args)

connect = SQLiteStore._connect
def wrapped_connect(self):
    return Conn(connect(self))
SQLiteStore._connect = wrapped_connect
"""
CHILD = child_script("sqlite", "SQLiteStore", SQLITE_HOOK)


def _mutate(corpus: Path, versions: dict[int, int], rng: random.Random, next_index: int) -> int:
    """Two files edited (replacements), one removed (a prune), one added."""
    present = sorted(versions)
    for index in rng.sample(present, 2):
        versions[index] += 1
        write_file(corpus, index, versions[index])
    gone = rng.choice([i for i in present if i in versions])
    (corpus / f"note{gone:03d}.md").unlink()
    del versions[gone]
    versions[next_index] = 0
    write_file(corpus, next_index, 0)
    return next_index + 1


def _expected(versions: dict[int, int]) -> dict[str, str]:
    from hardening.consistency import word_for

    return {f"note{i:03d}.md": word_for(f"{i:03d}", v) for i, v in versions.items()}


def _run_child(
    corpus: Path, data: Path, marker: Path, phase: str, nth: int, script: str = CHILD
) -> bool:
    """Runs one ingest; True if it was killed at its point, False if it finished first."""
    marker.unlink(missing_ok=True)
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(corpus), str(data), str(marker), phase, str(nth)],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        deadline = time.monotonic() + 120
        while child.poll() is None and time.monotonic() < deadline:
            if marker.exists():
                os.kill(child.pid, signal.SIGKILL)
                break
            time.sleep(0.02)
    finally:
        if child.poll() is None and not marker.exists():
            os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    if marker.exists():
        assert child.returncode == -signal.SIGKILL
        return True
    assert child.returncode == 0, f"the ingest failed on its own (exit {child.returncode})"
    return False


def test_twenty_kills_leave_a_consistent_store_that_the_next_run_completes(
    tmp_path: Path,
) -> None:
    rng = random.Random(20)
    corpus, data, marker = tmp_path / "docs", tmp_path / "data", tmp_path / "marker"
    corpus.mkdir()
    versions = {i: 0 for i in range(12)}
    for i in versions:
        write_file(corpus, i, 0)
    next_index = len(versions)
    kills: list[str] = []
    attempts = 0
    while len(kills) < KILLS and attempts < KILLS * 2:
        attempts += 1
        phase = PHASES[len(kills) % len(PHASES)]
        next_index = _mutate(corpus, versions, rng, next_index)
        if _run_child(corpus, data, marker, phase, rng.randint(1, 2)):
            kills.append(phase)
            db = data / "citewise.db"
            problems = table_problems(db) + vector_problems(db) + index_problems(data)
            assert not problems, f"after kill {len(kills)} ({phase}): {problems}"
    assert len(kills) == KILLS, f"only {len(kills)} kills landed: {kills}"
    assert {p: kills.count(p) for p in PHASES} == dict.fromkeys(PHASES, KILLS // len(PHASES))

    # the next, uninterrupted run completes: exactly the files' current versions, all ready
    from citewise.app import Assistant

    with Assistant(data_dir=data, embedder="hashing") as a:
        a.ingest([corpus], prune=True)
        assert all(d.status == "ready" for d in a.documents())
    assert table_problems(data / "citewise.db") == []
    assert vector_problems(data / "citewise.db") == []
    assert index_problems(data, _expected(versions)) == []
