"""The graph's part of ingest: once documents are promoted (`Store.finalize()`), each one's
graph is read out of its stored chunks (they carry the ids the graph cites) and stored beside
them, with its links to the documents already there."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText
from citewise.store.base import GraphHolder, Store

log = logging.getLogger(__name__)
# Extraction holds a document's chunks and entities at once (a 40,000-row sheet, 20k chunks:
# +290 MB and 100 s, measured): a longer document's graph is read from its first chunks
MAX_GRAPH_CHUNKS = 5_000


def store_graphs(store: Store, doc_ids: Sequence[int]) -> int:
    """Extracts and stores the graph of each document; returns how many were stored. A store
    without the capability keeps none; a graph that fails leaves its document searchable."""
    if not isinstance(store, GraphHolder):
        return 0
    stored = 0
    for doc_id in doc_ids:
        try:
            # only what extraction reads: a long document's parent texts and line boxes
            # would add to ingest's peak memory
            rows = store.document_texts(doc_id, limit=MAX_GRAPH_CHUNKS)
            if len(rows) == MAX_GRAPH_CHUNKS:
                log.info("document %d: graph read from its first %d chunks", doc_id, len(rows))
            chunks = [ChunkText(*row) for row in rows]
            store.replace_graph(doc_id, extract(chunks))
        except (ValueError, KeyError, IndexError, RecursionError) as exc:
            log.warning("no knowledge graph for document %d: %s", doc_id, exc)
            continue
        stored += 1
    return stored


class GraphBuilder(threading.Thread):
    """Stores promoted documents' graphs on its own thread and store, so that extraction (pure
    Python) runs while the embedder (native code, the GIL released) works on the next batch
    instead of after it."""

    def __init__(self, open_store: Callable[[], Store]) -> None:
        super().__init__(name="citewise-graph", daemon=True)
        self._open_store = open_store
        self._queue: queue.SimpleQueue[list[int] | None] = queue.SimpleQueue()
        self.built = 0
        self.error: BaseException | None = None

    def add(self, doc_ids: Sequence[int]) -> None:
        if doc_ids:
            self._queue.put(list(doc_ids))

    def finish(self) -> None:
        """Waits until every document handed over has its graph."""
        self._queue.put(None)
        while self.is_alive():
            self.join(timeout=0.5)

    def run(self) -> None:
        store: Store | None = None
        try:
            while (doc_ids := self._queue.get()) is not None:
                store = store or self._open_store()
                self.built += store_graphs(store, doc_ids)
        except BaseException as exc:  # surfaced by run_ingest in the caller's thread
            self.error = exc
        finally:
            if store is not None:
                store.close()
