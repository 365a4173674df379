"""The graph store contract, run on SQLite and PostgreSQL: atomic replace, delete with the
document, collection-scoped reads, document links."""

from __future__ import annotations

import pytest

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText, DocumentGraph, Entity
from graph.db import Backend

PUMP = (
    "The Controller Firmware depends on the Sensor Bus Interface (SBI).",
    "The Valve Controller requires the Controller Firmware.",
)
NOTES = ("Servicing the SBI: the Valve Controller uses the Sensor Bus Interface.",)
GRAPH_TABLES = ("graph_entities", "graph_mentions", "graph_names", "graph_relations")


def graph(doc_id: int, *texts: str) -> DocumentGraph:
    return extract([ChunkText(doc_id * 10 + i, t) for i, t in enumerate(texts)])


def two_documents(b: Backend, collection: str = "c") -> None:
    b.add_documents(1, 2)
    b.store.replace_document(1, collection, "Pump manual", "pump.pdf", graph(1, *PUMP))
    b.store.replace_document(2, collection, "Notes", "notes.txt", graph(2, *NOTES))


def test_replace_then_read_back_entity_with_alias_chunks_and_documents(backend: Backend) -> None:
    two_documents(backend)
    [sbi] = backend.store.entities("c", ["sensor bus interface"])
    assert sbi.name == "Sensor Bus Interface" and sbi.aliases == ("sbi",)
    assert sbi.chunk_ids == (10, 20) and sbi.doc_ids == (1, 2)
    # the notes write "SBI" alone: an entity of its own there, an alias in the manual
    assert backend.store.match_names("c", ["sbi", "nothing"]) == {
        "sbi": {"sbi", "sensor bus interface"}
    }
    assert backend.store.frequencies("c", ["valve controller", "sbi"]) == {
        "valve controller": 2,
        "sbi": 1,
    }


def test_reads_are_scoped_to_the_collection(backend: Backend) -> None:
    two_documents(backend, collection="a")
    s = backend.store
    assert s.match_names("b", ["sbi"]) == {}
    assert s.entities("b", ["sensor bus interface"]) == []
    assert s.edges("b", ["controller firmware"]) == []
    assert s.related_documents("b", 1) == []
    assert s.snapshot("b").entities == () and s.snapshot("b").documents == ()


def test_edges_merge_documents_and_keep_chunk_evidence(backend: Backend) -> None:
    two_documents(backend)
    typed = {
        (r.source, r.target, r.kind, r.chunk_ids)
        for r in backend.store.edges("c", ["controller firmware"])
        if r.kind != "mentions_with"
    }
    assert typed == {
        ("controller firmware", "sensor bus interface", "depends_on", (10,)),
        ("valve controller", "controller firmware", "requires", (11,)),
    }


def test_edges_can_be_limited_to_documents_from_given_sources(backend: Backend) -> None:
    two_documents(backend)
    edges = backend.store.edges("c", ["valve controller"], sources=["notes.txt"])
    assert edges and all(set(r.chunk_ids) <= {20} for r in edges)


def test_re_ingest_replaces_everything_the_document_contributed(backend: Backend) -> None:
    backend.add_documents(1)
    backend.store.replace_document(1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    backend.store.replace_document(
        1, "c", "Pump manual", "pump.pdf", graph(1, "The Cooling Loop is new.")
    )
    assert backend.store.match_names("c", ["sbi"]) == {}
    assert [e.key for e in backend.store.snapshot("c").entities] == ["cooling loop"]


def test_failed_replace_leaves_the_previous_graph(backend: Backend) -> None:
    backend.add_documents(1)
    backend.store.replace_document(1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    broken = DocumentGraph(entities=(Entity("x", "X", "name"), Entity("x", "X", "name")))
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        backend.store.replace_document(1, "c", "Pump manual", "pump.pdf", broken)
    assert backend.store.match_names("c", ["sbi"]) == {"sbi": {"sensor bus interface"}}


def test_deleting_the_document_row_deletes_its_graph(backend: Backend) -> None:
    two_documents(backend)
    backend.sql("DELETE FROM documents WHERE id = ?", (1,))
    for table in GRAPH_TABLES:
        assert backend.count(table, doc_id=1) == 0
    assert backend.count("graph_doc_links") == 0
    assert backend.count("graph_entities", doc_id=2) > 0


def test_delete_document_removes_its_rows_and_links(backend: Backend) -> None:
    two_documents(backend)
    backend.store.delete_document(2)
    assert backend.store.related_documents("c", 1) == []
    assert [d.doc_id for d in backend.store.snapshot("c").documents] == [1]
    assert all(backend.count(table, doc_id=2) == 0 for table in GRAPH_TABLES)


def test_graph_rows_need_a_stored_document(backend: Backend) -> None:
    with pytest.raises(Exception, match=r"(?i)foreign key"):
        backend.store.replace_document(99, "c", "Ghost", "ghost.txt", graph(99, *PUMP))


def test_related_documents_lists_explicit_and_implicit_links_strongest_first(
    backend: Backend,
) -> None:
    backend.add_documents(1, 2, 3)
    s = backend.store
    s.replace_document(1, "c", "Pump manual", "pump-manual.pdf", graph(1, *PUMP))
    s.replace_document(2, "c", "Notes", "notes.txt", graph(2, *NOTES))
    s.replace_document(3, "c", "Checklist", "c.txt", graph(3, "First read pump-manual.pdf."))
    links = s.related_documents("c", 1)
    assert {(k.documents, k.kind) for k in links} == {((1, 2), "implicit"), ((3, 1), "explicit")}
    assert links == sorted(links, key=lambda k: -k.strength)
    assert all(0.0 < k.strength <= 1.0 and k.evidence for k in links)
    assert s.related_documents("c", 1, min_strength=0.99) == []


def test_links_found_when_the_cited_document_arrives_after_the_citing_one(
    backend: Backend,
) -> None:
    backend.add_documents(1, 2)
    s = backend.store
    s.replace_document(1, "c", "Checklist", "c.txt", graph(1, "First read pump-manual.pdf."))
    links = s.replace_document(2, "c", "Pump manual", "pump-manual.pdf", graph(2, *PUMP))
    assert [(k.documents, k.kind) for k in links] == [((1, 2), "explicit")]
    assert [k.documents for k in s.related_documents("c", 1)] == [(1, 2)]


def test_snapshot_holds_documents_entities_relations_and_links(backend: Backend) -> None:
    two_documents(backend)
    snap = backend.store.snapshot("c")
    assert [d.source for d in snap.documents] == ["pump.pdf", "notes.txt"]
    assert {"controller firmware", "valve controller"} <= {e.key for e in snap.entities}
    assert any(r.kind == "depends_on" for r in snap.relations)
    assert [k.documents for k in snap.links] == [(1, 2)]
