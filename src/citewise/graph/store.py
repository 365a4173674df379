"""Where the graph lives: the `GraphStore` protocol every backend implements.

Rows belong to a document (deleted with it, replaced as a whole when it is re-ingested) and
carry its collection, so every read is scoped to one collection inside the query.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from citewise.graph.model import (
    DocumentGraph,
    DocumentLink,
    Entity,
    GraphDocument,
    GraphSnapshot,
    Relation,
)


class GraphStore(Protocol):
    def replace_document(
        self, doc_id: int, collection: str, title: str, source: str, graph: DocumentGraph
    ) -> list[DocumentLink]:
        """Replaces everything `doc_id` contributed, in one transaction, and recomputes its
        links to the other documents of the collection; returns those links."""
        ...

    def delete_document(self, doc_id: int) -> None: ...

    def match_names(self, collection: str, keys: Sequence[str]) -> dict[str, set[str]]:
        """For each given key that names an entity (its own name or an alias), the entity
        keys it names."""
        ...

    def entities(self, collection: str, keys: Sequence[str]) -> list[Entity]:
        """The entities with these keys, merged over the collection's documents (chunk and
        document ids filled)."""
        ...

    def frequencies(self, collection: str, keys: Sequence[str]) -> dict[str, int]:
        """How many documents of the collection mention each entity."""
        ...

    def document_count(self, collection: str) -> int: ...

    def edges(
        self, collection: str, keys: Sequence[str], *, sources: Sequence[str] = ()
    ) -> list[Relation]:
        """Relations touching any of `keys`, merged over documents (limited to documents
        from `sources` when given)."""
        ...

    def chunk_documents(self, collection: str, chunk_ids: Sequence[int]) -> dict[int, int]:
        """The document of each chunk that names an entity (others are left out)."""
        ...

    def document_entities(self, collection: str, doc_id: int) -> dict[str, int]:
        """The entities one document names, each with how many of its passages name it."""
        ...

    def related_documents(
        self, collection: str, doc_id: int, *, min_strength: float = 0.0, limit: int = 10
    ) -> list[DocumentLink]:
        """Links of `doc_id` either way, strongest first."""
        ...

    def documents(self, collection: str, doc_ids: Sequence[int]) -> list[GraphDocument]:
        """The titles and sources of these documents (those of the collection), by id."""
        ...

    def snapshot(self, collection: str) -> GraphSnapshot: ...
