"""The ingest's embedding worker: embeds the chunks that lack vectors beside parsing, each
distinct text once, and finalizes the documents whose chunks all have vectors."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from citewise.embed.base import Embedder
from citewise.errors import StoreConnectionError
from citewise.store.base import Store
from citewise.text.embed_key import normalised

log = logging.getLogger(__name__)
_T = TypeVar("_T")
EMBED_BATCH = 256


class EmbedProgress(Protocol):
    def embedded(self, done: int, total: int) -> None: ...


def once_more_if_cut(work: Callable[[], _T], what: str) -> _T:
    """Runs `work`, and once more when the store's connection was cut (a server restart
    rolls the open transaction back; every step here can be done again)."""
    try:
        return work()
    except StoreConnectionError as exc:
        log.warning("%s: the store's connection was cut (%s); trying once more", what, exc)
        return work()


class EmbedWorker(threading.Thread):
    """Embeds chunks lacking vectors, longest-similar batches together, until told to stop
    and nothing is left. Runs beside parsing so both cores stay busy."""

    def __init__(
        self,
        open_store: Callable[[], Store],
        embedder_factory: Callable[[], Embedder],
        progress: EmbedProgress,
        ready: Callable[[Sequence[int]], object],
        *,
        batch: int = EMBED_BATCH,
    ) -> None:
        super().__init__(name="citewise-embed", daemon=True)
        self._ready = ready  # the documents each finalize promoted (their graphs are built)
        self._open_store = open_store
        self._embedder_factory = embedder_factory
        self._progress = progress
        self._batch = batch
        self._wake = threading.Event()
        self._done = threading.Event()
        self.embedded = 0
        self.shared = 0  # of those, chunks that took another chunk's vector (not embedded)
        self.error: BaseException | None = None

    def wake(self) -> None:
        self._wake.set()

    def finish(self) -> None:
        self._done.set()
        self._wake.set()
        while self.is_alive():
            self.join(timeout=0.5)

    def run(self) -> None:
        store = self._open_store()
        try:
            once_more_if_cut(lambda: self._loop(store), "embedding")
        except BaseException as exc:  # surfaced by run_ingest in the caller's thread
            self.error = exc
        finally:
            store.close()

    def _embed_once(self, store: Store, embedder: Embedder, part: list[tuple[int, str]]) -> None:
        """Vectors for `part`: a text stored before (any document, any collection) lends its
        vector, and texts equal after whitespace are embedded once (`text.embed_key`)."""
        shared = set(store.share_vectors([cid for cid, _ in part]))
        todo = [(cid, text) for cid, text in part if cid not in shared]
        if not todo:
            self.shared += len(part)
            return
        first: dict[str, int] = {}  # normalised text → its row in `unique`
        unique: list[str] = []
        for _, text in todo:
            if first.setdefault(normalised(text), len(unique)) == len(unique):
                unique.append(text)
        rows = [first[normalised(text)] for _, text in todo]
        vectors = embedder.embed_documents(unique)
        ids, texts = [cid for cid, _ in todo], [text for _, text in todo]
        store.put_vectors(ids, vectors[rows], embedder.name, texts=texts)
        self.shared += len(part) - len(unique)

    def _loop(self, store: Store) -> None:
        embedder: Embedder | None = None
        while True:
            finishing = self._done.is_set()
            batch = store.chunks_missing_vectors(self._batch * 4)
            if not batch:
                self._ready(store.finalize())
                if finishing:
                    return
                self._wake.wait(timeout=0.5)
                self._wake.clear()
                continue
            if not finishing and len(batch) < self._batch:
                # replacements whose vectors were all reused are ready now
                self._ready(store.finalize())
                # Wait for a fuller batch: fewer, larger reads and writes of the store.
                self._wake.wait(timeout=0.5)
                self._wake.clear()
                if not self._done.is_set() and len(batch) < self._batch // 4:
                    continue
            total = self.embedded + store.count_missing_vectors()
            self._progress.embedded(self.embedded, total)  # the bar shows before the first batch
            embedder = embedder or self._embedder_factory()
            for start in range(0, len(batch), self._batch):  # progress every self._batch chunks
                part = batch[start : start + self._batch]
                self._embed_once(store, embedder, part)
                self.embedded += len(part)
                self._progress.embedded(self.embedded, total)
            self._ready(store.finalize())
