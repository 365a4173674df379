"""The crash tests' kill loop (`kill_at_every_phase`) and the ingest child it kills, for
either store. `child_script(module, store, hook)` is a script that ingests with --prune and
freezes at the n-th occurrence of its phase — inside a parse, or inside an open write
transaction just before its COMMIT — then tells the parent, which kills it with SIGKILL.
`hook` wraps the store's transactions so `reached(step)` runs before each COMMIT;
`local.step` names the store call running, `local.deleted` whether the transaction deleted
a document (a replacement's swap)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from hardening.consistency import word_for, write_file

KILLS = 20
PHASES = ("parse", "insert", "embed", "swap", "prune")

_PRELUDE = """
import sys, threading, time
from contextlib import contextmanager
from pathlib import Path
import citewise.ingest.parsers as parsers
import citewise.ingest.pipeline as pipeline
from citewise.assistant import Assistant
from citewise.store.{module} import {store}

corpus, data, marker, phase, nth = sys.argv[1:6]
nth = int(nth)
pipeline.EMBED_BATCH = 4  # several batches per run
seen = {{"n": 0}}
local = threading.local()

def reached(name):
    if name != phase:
        return
    seen["n"] += 1
    if seen["n"] == nth:
        Path(marker).write_text(name)
        time.sleep(60)  # frozen here until killed

def before_commit():
    step = getattr(local, "step", None)
    if step == "finalize" and getattr(local, "deleted", False):
        reached("swap")
    elif step in ("insert", "embed", "prune"):
        reached(step)

parse_file = parsers.parse_file
def slow_parse(*args, **kwargs):
    reached("parse")
    return parse_file(*args, **kwargs)
parsers.parse_file = slow_parse
"""

_TAGGING = """
def tagged(method, step):
    def run(*args, **kwargs):
        local.step = step
        try:
            return method(*args, **kwargs)
        finally:
            local.step = None
    return run

{store}.add_document = tagged({store}.add_document, "insert")
{store}.put_vectors = tagged({store}.put_vectors, "embed")
{store}.finalize = tagged({store}.finalize, "finalize")
pipeline.prune = tagged(pipeline.prune, "prune")

with Assistant(data_dir=data, embedder="hashing") as a:
    a.ingest([corpus], prune=True)
"""


def child_script(module: str, store: str, hook: str) -> str:
    """The child for `citewise.store.<module>.<store>`, its transactions wrapped by `hook`."""
    parts = (_PRELUDE.format(module=module, store=store), textwrap.dedent(hook), _TAGGING)
    return "\n".join(part.format(store=store) if part is _TAGGING else part for part in parts)


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


def expected_words(versions: dict[int, int]) -> dict[str, str]:
    """The word each file's current version holds, by file name."""
    return {f"note{i:03d}.md": word_for(f"{i:03d}", v) for i, v in versions.items()}


def _run_child(corpus: Path, data: Path, marker: Path, phase: str, nth: int, script: str) -> bool:
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


def kill_at_every_phase(
    tmp_path: Path, seed: int, script: str, problems: Callable[[Path], list[str]]
) -> tuple[Path, Path, dict[int, int]]:
    """Twelve files, then KILLS rounds of edits each followed by an ingest killed at the next
    phase in turn; `problems(data)` must find none after each kill. Returns the corpus, the
    data dir and each file's current version."""
    rng = random.Random(seed)
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
        if _run_child(corpus, data, marker, phase, rng.randint(1, 2), script):
            kills.append(phase)
            found = problems(data)
            assert not found, f"after kill {len(kills)} ({phase}): {found}"
    assert len(kills) == KILLS, f"only {len(kills)} kills landed: {kills}"
    assert {p: kills.count(p) for p in PHASES} == dict.fromkeys(PHASES, KILLS // len(PHASES))
    return corpus, data, versions
