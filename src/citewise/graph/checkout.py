"""A `GraphStore` over a pool: each call runs on a connection checked out for it (the
PostgreSQL store's, which is the thread's pinned one inside `snapshot()`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

from citewise.graph.model import (
    DocumentGraph,
    DocumentLink,
    Entity,
    GraphDocument,
    GraphSnapshot,
    Relation,
)
from citewise.graph.store import GraphStore


class CheckoutGraphStore:
    def __init__(self, checkout: Callable[[], AbstractContextManager[GraphStore]]) -> None:
        self._checkout = checkout

    def replace_document(
        self, doc_id: int, collection: str, title: str, source: str, graph: DocumentGraph
    ) -> list[DocumentLink]:
        with self._checkout() as graphs:
            return graphs.replace_document(doc_id, collection, title, source, graph)

    def delete_document(self, doc_id: int) -> None:
        with self._checkout() as graphs:
            graphs.delete_document(doc_id)

    def match_names(self, collection: str, keys: Sequence[str]) -> dict[str, set[str]]:
        with self._checkout() as graphs:
            return graphs.match_names(collection, keys)

    def entities(self, collection: str, keys: Sequence[str]) -> list[Entity]:
        with self._checkout() as graphs:
            return graphs.entities(collection, keys)

    def frequencies(self, collection: str, keys: Sequence[str]) -> dict[str, int]:
        with self._checkout() as graphs:
            return graphs.frequencies(collection, keys)

    def document_count(self, collection: str) -> int:
        with self._checkout() as graphs:
            return graphs.document_count(collection)

    def edges(
        self, collection: str, keys: Sequence[str], *, sources: Sequence[str] = ()
    ) -> list[Relation]:
        with self._checkout() as graphs:
            return graphs.edges(collection, keys, sources=sources)

    def chunk_documents(self, collection: str, chunk_ids: Sequence[int]) -> dict[int, int]:
        with self._checkout() as graphs:
            return graphs.chunk_documents(collection, chunk_ids)

    def document_entities(self, collection: str, doc_id: int) -> dict[str, int]:
        with self._checkout() as graphs:
            return graphs.document_entities(collection, doc_id)

    def related_documents(
        self, collection: str, doc_id: int, *, min_strength: float = 0.0, limit: int = 10
    ) -> list[DocumentLink]:
        with self._checkout() as graphs:
            return graphs.related_documents(
                collection, doc_id, min_strength=min_strength, limit=limit
            )

    def documents(self, collection: str, doc_ids: Sequence[int]) -> list[GraphDocument]:
        with self._checkout() as graphs:
            return graphs.documents(collection, doc_ids)

    def snapshot(self, collection: str) -> GraphSnapshot:
        with self._checkout() as graphs:
            return graphs.snapshot(collection)
