"""The worker process: `citewise worker` consumes file jobs until SIGTERM or SIGINT.

Each worker thread has its own store (a SQLite connection cannot cross threads; for
PostgreSQL it is a small pool); the embedder is one per process. Jobs that raise are
retried with exponential backoff, then dead-lettered (`queue.DeadLetters`); a file that
cannot be read or parsed is dead-lettered at once, since retrying cannot help.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import dramatiq

from citewise.config import Settings
from citewise.embed.base import Embedder
from citewise.ingest.runner import chunking_for
from citewise.ingest.streamed import StreamLimits
from citewise.store.base import Store
from citewise.store.registry import StoreOpener
from citewise.workers.file_job import FileJob, run_file_job
from citewise.workers.keep import keep_upload, upload_to_read
from citewise.workers.queue import (
    ACTOR_NAME,
    QUEUE_NAME,
    DeadLetter,
    clear_dead_letter,
    make_broker,
    record_dead_letter,
    record_outcome,
    record_started,
    worker_name,
)

log = logging.getLogger(__name__)


@dataclass
class Backoff:
    retries: int = 3
    min_ms: int = 2_000
    max_ms: int = 60_000
    time_limit_ms: int = 30 * 60_000  # one file's parse + embed


@dataclass
class _Context:
    open_store: StoreOpener
    local: threading.local = field(default_factory=threading.local)
    stores: list[Store] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def store(self) -> Store:
        store: Store | None = getattr(self.local, "store", None)
        if store is None:
            store = self.open_store(pool_size=2)
            self.local.store = store
            with self.lock:
                self.stores.append(store)
        return store

    def close(self) -> None:
        for store in self.stores:
            # a SQLite connection may only be closed by its own (now finished) thread,
            # and is released with it
            with contextlib.suppress(sqlite3.ProgrammingError):
                store.close()


def build_worker(
    settings: Settings,
    open_store: StoreOpener,
    embedder: Callable[[], Embedder],
    *,
    threads: int = 1,
    backoff: Backoff | None = None,
) -> tuple[dramatiq.Worker, _Context]:
    """A dramatiq worker (not started) consuming the ingestion queue of `settings.queue`;
    each thread opens its store with `open_store`, all share `embedder()`."""
    backoff = backoff or Backoff(retries=settings.queue_retries)
    broker = make_broker(settings.queue)
    ctx = _Context(open_store)
    chunking = chunking_for(settings)

    def ingest_file(
        path: str, source: str, collection: str, batch: str, keep_dir: str = ""
    ) -> None:
        staged = Path(path)
        read = upload_to_read(staged, Path(keep_dir)) if keep_dir else staged
        job = FileJob(str(read), source, collection)
        record_started(broker.client, batch, source)
        outcome = run_file_job(
            job, ctx.store(), embedder, chunking=chunking,
            max_file_bytes=settings.max_file_bytes,
            streaming=StreamLimits(above_bytes=settings.stream_text_above_bytes,
                                   max_bytes=settings.max_text_file_bytes),
        )  # fmt: skip
        if outcome.status == "failed":
            record_dead_letter(
                broker.client,
                DeadLetter(collection, source, path, outcome.reason, 1, worker_name(),
                           time.time()),
            )  # fmt: skip
        else:
            clear_dead_letter(broker.client, collection, source)
        if keep_dir and read == staged:
            keep_upload(staged, Path(keep_dir), keep=outcome.status != "failed")
        record_outcome(
            broker.client,
            batch,
            {"source": source, "status": outcome.status, "reason": outcome.reason,
             "chunks": outcome.chunks, "worker": worker_name()},
        )  # fmt: skip

    dramatiq.actor(
        broker=broker,
        actor_name=ACTOR_NAME,
        queue_name=QUEUE_NAME,
        max_retries=backoff.retries,
        min_backoff=backoff.min_ms,
        max_backoff=backoff.max_ms,
        time_limit=backoff.time_limit_ms,
    )(ingest_file)
    worker = dramatiq.Worker(broker, worker_threads=threads)
    worker.queue_prefetch = 1  # a busy worker holds no job another could start
    return worker, ctx


def serve(
    settings: Settings,
    open_store: StoreOpener,
    embedder: Callable[[], Embedder],
    *,
    threads: int = 1,
    stop: threading.Event | None = None,
    backoff: Backoff | None = None,
) -> None:
    """Runs until `stop` is set, or SIGTERM/SIGINT (when called from the main thread)."""
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
    worker, ctx = build_worker(settings, open_store, embedder, threads=threads, backoff=backoff)
    worker.start()
    log.info("citewise worker %s consuming %s", worker_name(), QUEUE_NAME)
    try:
        stop.wait()
    finally:
        worker.stop(timeout=60_000)
        worker.broker.close()
        ctx.close()
