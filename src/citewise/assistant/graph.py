"""The knowledge graph through the facade: an entity, a document's linked documents, the
neighbourhood picture, the whole graph of a collection, and building it for documents stored
before it existed."""

from __future__ import annotations

from typing import Any

from citewise.assistant.base import FacadeBase
from citewise.errors import InputError
from citewise.graph.model import GraphSnapshot
from citewise.graph.store import GraphStore
from citewise.graph.views import entity_view, related_view
from citewise.ingest.graph import store_graphs
from citewise.store.base import GraphHolder


class GraphMethods(FacadeBase):
    def _graph(self) -> GraphStore:
        store = self._store()
        if not isinstance(store, GraphHolder):
            raise InputError("this store keeps no knowledge graph")
        return store.graph_store()

    def graph_entity(self, name: str, *, collection: str | None = None) -> dict[str, Any]:
        """An entity: its aliases, relations with the passages behind them, its documents
        (`NotFoundError` when the collection's graph does not hold it)."""
        graph = self._graph()
        return entity_view(self._store(), graph, collection or self.collection, name)

    def graph_related(self, source: str, *, collection: str | None = None) -> dict[str, Any]:
        """Documents linked to `source`, each with the reason and strength of the link."""
        graph = self._graph()
        return related_view(self._store(), graph, collection or self.collection, source)

    def graph_ego(
        self,
        *,
        entity: str | None = None,
        document: str | None = None,
        collection: str | None = None,
        limit: int | None = None,
    ) -> dict[str, Any]:
        """One entity or document (name exactly one) and its strongest neighbours, as nodes
        and edges (at most `limit`, default `graph.ego.EGO_LIMIT`); `hidden` counts the
        neighbours left out."""
        # the picture's layout code loads only when a picture is asked for
        from citewise.graph.ego import EGO_LIMIT, document_ego, entity_ego

        if (entity is None) == (document is None):
            raise InputError("name either an entity or a document")
        graph, name = self._graph(), collection or self.collection
        most = EGO_LIMIT if limit is None else limit
        if entity is not None:
            return entity_ego(self._store(), graph, name, entity, limit=most)
        return document_ego(self._store(), graph, name, document or "", limit=most)

    def graph_snapshot(self, *, collection: str | None = None) -> GraphSnapshot:
        """The collection's whole graph: documents, entities, relations and links."""
        return self._graph().snapshot(collection or self.collection)

    def build_graph(
        self, *, rebuild: bool = False, collection: str | None = None
    ) -> tuple[int, int]:
        """Builds the graph of the collection's ready documents that have none (every one
        with `rebuild`); returns (built, ready documents)."""
        name = collection or self.collection
        graph = self._graph()
        ids = [d.doc_id for d in self._store().list_documents(name) if d.status == "ready"]
        have = set() if rebuild else {d.doc_id for d in graph.documents(name, ids)}
        return store_graphs(self._store(), [i for i in ids if i not in have]), len(ids)
