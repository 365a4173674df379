"""Several processes on one SQLite store: two ingests at once, searches during an ingest, a
replace racing searches. No "database is locked" reaches a user; nothing is lost or
returned twice."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from citewise.assistant import Assistant
from hardening.consistency import index_problems, table_problems, vector_problems, write_file

pytestmark = pytest.mark.slow

INGEST = textwrap.dedent(
    """
    import sys
    from citewise.assistant import Assistant
    with Assistant(data_dir=sys.argv[2], embedder="hashing") as a:
        for _ in range(int(sys.argv[3])):
            a.ingest([sys.argv[1]], prune=True)
    """
)
# Rewrites one file between two versions and re-ingests it, `rounds` times: each ingest
# stages a replacement and swaps it in.
FLIP = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from citewise.assistant import Assistant
    corpus, data, rounds = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    versions = [Path(sys.argv[4]).read_text(), Path(sys.argv[5]).read_text()]
    with Assistant(data_dir=data, embedder="hashing") as a:
        for i in range(rounds):
            (corpus / "flip.md").write_text(versions[i % 2])
            a.ingest([corpus])
    """
)


def _start(script: str, *args: object) -> subprocess.Popen[bytes]:
    # stderr to a file: a pipe nobody reads while the child runs could fill and block it
    fd, log = tempfile.mkstemp(prefix="citewise-child-", suffix=".log")
    child = subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        stderr=fd,
    )
    os.close(fd)
    child.log_path = log  # type: ignore[attr-defined]
    return child


def _finish(child: subprocess.Popen[bytes]) -> None:
    child.wait(timeout=300)
    log = Path(child.log_path)  # type: ignore[attr-defined]
    err = log.read_text(errors="replace")
    log.unlink()
    assert child.returncode == 0, err[-2000:]


def _corpus(root: Path, files: int) -> dict[str, str]:
    root.mkdir(parents=True, exist_ok=True)
    return {f"note{i:03d}.md": write_file(root, i, 0) for i in range(files)}


def test_two_ingest_processes_on_one_store_store_each_file_once(tmp_path: Path) -> None:
    corpus, data = tmp_path / "docs", tmp_path / "data"
    expected = _corpus(corpus, 30)
    children = [_start(INGEST, corpus, data, 2) for _ in range(2)]
    for child in children:
        _finish(child)
    db = data / "citewise.db"
    assert table_problems(db) + vector_problems(db) == []
    assert index_problems(data, expected) == []


def test_searches_during_an_ingest_never_fail_or_repeat_a_chunk(tmp_path: Path) -> None:
    corpus, data = tmp_path / "docs", tmp_path / "data"
    expected = _corpus(corpus, 60)
    child = _start(INGEST, corpus, data, 1)
    searches = questions = 0
    with Assistant(data_dir=data, embedder="hashing") as a:
        while child.poll() is None or (questions == 0 and child.returncode == 0):
            for mode in ("keyword", "vector", "hybrid"):
                hits = a.search("setting of note controls", k=10, mode=mode).hits
                ids = [h.chunk_id for h in hits]
                assert len(ids) == len(set(ids)), mode
                assert {h.source for h in hits} <= set(expected)
                searches += 1
            if a.documents():
                answer = a.ask("What does the setting of note 3 control?", session_id="q")
                assert {c.source for c in answer.citations} <= set(expected)
                questions += 1
    _finish(child)
    assert searches > 3 and questions > 0
    assert index_problems(data, expected) == []


def test_a_replace_racing_searches_always_finds_exactly_one_version(tmp_path: Path) -> None:
    corpus, data = tmp_path / "docs", tmp_path / "data"
    corpus.mkdir()
    old_word, new_word = write_file(corpus, 0, 1), write_file(corpus, 0, 2)
    versions = tmp_path / "v1.md", tmp_path / "v2.md"
    write_file(corpus, 0, 1)
    versions[0].write_text((corpus / "note000.md").read_text())
    write_file(corpus, 0, 2)
    versions[1].write_text((corpus / "note000.md").read_text())
    (corpus / "note000.md").unlink()
    (corpus / "flip.md").write_text(versions[0].read_text())
    with Assistant(data_dir=data, embedder="hashing") as a:
        a.ingest([corpus])
    child = _start(FLIP, corpus, data, 12, *versions)
    checks = 0
    started = time.monotonic()
    with Assistant(data_dir=data, embedder="hashing") as a:
        while child.poll() is None and time.monotonic() - started < 240:
            hits = a.search(f"{old_word} {new_word} setting", k=20, mode="keyword").hits
            ids = [h.chunk_id for h in hits]
            assert len(ids) == len(set(ids))
            words = {w for h in hits for w in (old_word, new_word) if w in h.text}
            assert len(words) == 1, f"versions seen together or none: {words}"
            assert len(a.documents()) == 1
            checks += 1
    _finish(child)
    assert checks > 5
