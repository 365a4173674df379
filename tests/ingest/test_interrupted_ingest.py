"""An ingest killed with SIGKILL midway leaves a consistent store the next run completes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from citewise.assistant import Assistant

pytestmark = pytest.mark.slow

# A child process ingests with an embedder that is slow on purpose and announces each batch,
# so the parent can kill it while some documents are embedded and others are not.
CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import citewise.ingest.pipeline as pipeline
    from citewise.assistant import Assistant
    from citewise.embed.hashing import HashingEmbedder

    pipeline.EMBED_BATCH = 8  # many small batches, so the kill lands between two of them

    class SlowEmbedder(HashingEmbedder):
        batches = 0
        def embed_documents(self, texts):
            SlowEmbedder.batches += 1
            Path(sys.argv[3]).write_text(str(SlowEmbedder.batches))
            time.sleep(0.2)
            return super().embed_documents(texts)

    with Assistant(data_dir=sys.argv[2], embedder=SlowEmbedder()) as a:
        a.ingest([sys.argv[1]])
    """
)


def _write_corpus(root: Path, files: int) -> None:
    root.mkdir(parents=True)
    for i in range(files):
        paras = "\n\n".join(
            f"Paragraph {j} of note {i}: the widget{i} setting controls the gadget{j} limit "
            "and is read when the service starts. " * 3
            for j in range(12)
        )
        (root / f"note{i:03}.md").write_text(f"# Note {i}\n\n{paras}\n", encoding="utf-8")


def test_ingest_killed_midway_is_completed_by_the_next_run(tmp_path: Path) -> None:
    corpus, data, marker = tmp_path / "docs", tmp_path / "data", tmp_path / "batches"
    _write_corpus(corpus, 60)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(corpus), str(data), str(marker)],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and child.poll() is None:
            if marker.exists() and int(marker.read_text() or 0) >= 3:
                break
            time.sleep(0.05)
        assert child.poll() is None, "the ingest finished before it could be interrupted"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL

    with sqlite3.connect(data / "citewise.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        missing = conn.execute("SELECT count(*) FROM chunks WHERE has_vector = 0").fetchone()[0]
    assert missing > 0, "the kill came too late to leave unembedded chunks"

    with Assistant(data_dir=data, embedder="hashing") as a:
        interrupted = {d.source: d.status for d in a.documents()}
        report = a.ingest([corpus])
        docs = a.documents()
        assert len(docs) == 60 and all(d.status == "ready" for d in docs)
        assert all(o.status in {"ingested", "unchanged"} for o in report.outcomes)
        hits = a.search("widget59 setting", k=3, mode="vector").hits
        assert hits and all(h.source.startswith("note") for h in hits)
        assert a.search("widget59", k=1, mode="keyword").hits[0].source == "note059.md"
        chunks_after = {d.source: d.chunk_count for d in docs}

    with Assistant(data_dir=tmp_path / "clean", embedder="hashing") as clean:
        clean.ingest([corpus])
        assert {d.source: d.chunk_count for d in clean.documents()} == chunks_after
    # every file the killed run had already stored was resumed, not duplicated
    assert set(interrupted) <= set(chunks_after)
