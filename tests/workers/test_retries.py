"""A job that raises is retried with backoff; one that keeps failing, and a file that cannot
be parsed, land in the dead-letter list with their reason (real redis-server, in-process
worker on a SQLite store)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from citewise.assistant import Assistant
from citewise.config import Settings
from citewise.embed.base import Vectors
from citewise.embed.hashing import HashingEmbedder
from citewise.store.registry import open_store
from citewise.workers.process import Backoff
from citewise.workers.queue import IngestQueue

pytestmark = pytest.mark.integration


class FlakyEmbedder(HashingEmbedder):
    """Fails twice on texts holding "flaky", always on texts holding "broken"."""

    def __init__(self) -> None:
        super().__init__()
        self.flaky_failures = 0

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if any("broken" in t for t in texts):
            raise RuntimeError("embedding service unavailable")
        if any("flaky" in t for t in texts) and self.flaky_failures < 2:
            self.flaky_failures += 1
            raise ConnectionError("embedding service timed out")
        return super().embed_documents(texts)


def test_failing_jobs_are_retried_then_dead_lettered(tmp_path: Path, redis_url: str) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "flaky.txt").write_text("A flaky service answers on the third call.")
    (docs / "broken.txt").write_text("A broken service never answers.")
    (docs / "fine.txt").write_text("A fine document about quokkas.")
    (docs / "bad.pdf").write_bytes(b"%PDF-1.7 this is not a PDF at all")
    store_url = f"sqlite:///{tmp_path / 'store.db'}"
    settings = Settings(data_dir=tmp_path / "data", queue=redis_url, store=store_url)
    embedder = FlakyEmbedder()
    stop = threading.Event()
    backoff = Backoff(retries=3, min_ms=50, max_ms=200)
    worker = Assistant(settings=settings, embedder=embedder)
    thread = threading.Thread(
        target=worker.ingest_from_queue, kwargs={"stop": stop, "backoff": backoff}
    )
    thread.start()
    queue = IngestQueue(redis_url)
    try:
        batch = queue.submit([docs], "default")
        outcomes = {o["source"]: o for o in queue.wait(batch, timeout=120)}
        letters = {d.source: d for d in queue.dead_letters()}
    finally:
        queue.close()
        stop.set()
        thread.join(timeout=120)
        worker.close()
    assert not thread.is_alive()
    assert embedder.flaky_failures == 2
    assert {s: o["status"] for s, o in outcomes.items()} == {
        "flaky.txt": "ingested", "fine.txt": "ingested", "broken.txt": "failed",
        "bad.pdf": "failed",
    }  # fmt: skip
    assert set(letters) == {"broken.txt", "bad.pdf"}
    assert letters["broken.txt"].reason == "RuntimeError: embedding service unavailable"
    assert letters["broken.txt"].attempts == 4  # the first try and 3 retries
    assert letters["bad.pdf"].attempts == 1 and letters["bad.pdf"].reason
    store = open_store(store_url)
    try:
        ready = {d.source: d.status for d in store.list_documents("default")}
    finally:
        store.close()
    assert ready["flaky.txt"] == "ready" and ready["fine.txt"] == "ready"
