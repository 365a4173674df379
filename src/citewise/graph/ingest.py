"""The graph's part of ingest: once documents are promoted (`Store.finalize()`), each one's
graph is read out of its stored chunks (they carry the ids the graph cites) and stored beside
them, with its links to the documents already there."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from citewise.graph.extract import extract_records
from citewise.store.base import GraphHolder, Store

log = logging.getLogger(__name__)


def store_graphs(store: Store, doc_ids: Sequence[int]) -> int:
    """Extracts and stores the graph of each document; returns how many were stored. A store
    without the capability keeps none; a graph that fails leaves its document searchable."""
    if not isinstance(store, GraphHolder):
        return 0
    stored = 0
    for doc_id in doc_ids:
        try:
            store.replace_graph(doc_id, extract_records(store.document_chunks(doc_id)))
        except (ValueError, KeyError, IndexError, RecursionError) as exc:
            log.warning("no knowledge graph for document %d: %s", doc_id, exc)
            continue
        stored += 1
    return stored
