"""The knowledge graph's part of the store contract kit, for backends that implement
`GraphHolder`: a document's graph is stored once it is promoted, replaced with it, deleted
with it and read per collection. A subclass provides the same `store` fixture as
`StoreContractTests`:

    class TestMyStore(StoreContractTests, GraphHolderContractTests): ...
"""

from __future__ import annotations

from citewise.graph.model import DocumentGraph, entity_key
from citewise.ingest.graph import store_graphs
from citewise.store.base import GraphHolder, Store
from citewise.testing.store_documents import embed_all as _embed_all
from citewise.testing.store_documents import new_document

PUMP = (
    "The Pump Controller uses the Sensor Bus Interface (SBI). "
    "The SBI requires firmware FC-001-234 on every board."
)
WIRING = "See pump-manual.txt for the Pump Controller. The Sensor Bus Interface carries FC-001-234."


def _promote(store: Store) -> list[int]:
    """Embeds and finalizes as ingest does, storing each promoted document's graph."""
    before = {d.doc_id for c in store.collections() for d in store.list_documents(c)}
    _embed_all(store)
    ready = {d.doc_id for c in store.collections() for d in store.list_documents(c)}
    promoted = sorted(ready - before) or sorted(ready)
    store_graphs(store, promoted)
    return promoted


def _holder(store: Store) -> GraphHolder:
    assert isinstance(store, GraphHolder)
    return store


class GraphHolderContractTests:
    def test_a_promoted_documents_graph_is_stored_with_its_chunk_ids(self, store: Store) -> None:
        doc_id = store.add_document(new_document("pump-manual.txt", PUMP))
        _promote(store)
        graphs = _holder(store).graph_store()
        found = graphs.match_names("default", [entity_key("SBI")])
        assert found == {"sbi": {entity_key("Sensor Bus Interface")}}
        (entity,) = graphs.entities("default", [entity_key("FC-001-234")])
        chunk_ids = {c.chunk_id for c in store.document_chunks(doc_id)}
        assert entity.doc_ids == (doc_id,) and set(entity.chunk_ids) <= chunk_ids
        kinds = {r.kind for r in graphs.edges("default", [entity_key("Pump Controller")])}
        assert "uses" in kinds

    def test_a_document_naming_another_by_file_name_links_to_it(self, store: Store) -> None:
        pump = store.add_document(new_document("pump-manual.txt", PUMP))
        _promote(store)
        wiring = store.add_document(new_document("wiring.txt", WIRING))
        _promote(store)
        links = _holder(store).graph_store().related_documents("default", pump)
        assert any(link.kind == "explicit" and link.documents == (wiring, pump) for link in links)
        assert all(0.0 <= link.strength <= 1.0 and link.evidence for link in links)

    def test_deleting_a_document_deletes_its_graph_and_links(self, store: Store) -> None:
        pump = store.add_document(new_document("pump-manual.txt", PUMP))
        wiring = store.add_document(new_document("wiring.txt", WIRING))
        _promote(store)
        store_graphs(store, [pump, wiring])
        store.delete_document(pump)
        graphs = _holder(store).graph_store()
        assert graphs.related_documents("default", wiring) == []
        assert graphs.document_count("default") == 1
        assert graphs.match_names("default", ["sbi"]) == {}

    def test_a_replacement_replaces_the_graph_at_finalize(self, store: Store) -> None:
        old = store.add_document(new_document("pump-manual.txt", PUMP))
        _promote(store)
        store.add_document(
            new_document("pump-manual.txt", "The Valve Driver requires FC-777-000.", digest="h2"),
            replaces=old,
        )
        _promote(store)
        graphs = _holder(store).graph_store()
        assert graphs.match_names("default", ["sbi"]) == {}
        assert graphs.match_names("default", [entity_key("FC-777-000")]) != {}
        assert graphs.document_count("default") == 1

    def test_graph_reads_are_scoped_by_collection(self, store: Store) -> None:
        store.add_document(new_document("pump-manual.txt", PUMP, collection="ops"))
        _promote(store)
        graphs = _holder(store).graph_store()
        assert graphs.match_names("default", ["sbi"]) == {}
        assert graphs.match_names("ops", ["sbi"]) != {}
        assert graphs.snapshot("default").entities == ()

    def test_a_graph_for_a_deleted_document_is_not_stored(self, store: Store) -> None:
        doc_id = store.add_document(new_document("pump-manual.txt", PUMP))
        _promote(store)
        store.delete_document(doc_id)
        assert _holder(store).replace_graph(doc_id, DocumentGraph()) == []
        assert _holder(store).graph_store().document_count("default") == 0
