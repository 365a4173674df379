"""The SQLite graph store: atomic replace, delete with the document, scoped reads, links."""

from __future__ import annotations

import sqlite3

import pytest

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText, DocumentGraph, Entity, Relation
from citewise.graph.sqlite import SQLiteGraphStore, delete_document, replace_document
from graph.db import add_documents

PUMP = (
    "The Controller Firmware depends on the Sensor Bus Interface (SBI).",
    "The Valve Controller requires the Controller Firmware.",
)
NOTES = ("Servicing the SBI: the Valve Controller reads the Sensor Bus Interface.",)


def graph(doc_id: int, *texts: str) -> DocumentGraph:
    return extract([ChunkText(doc_id * 10 + i, t) for i, t in enumerate(texts)])


def count(conn: sqlite3.Connection, table: str) -> int:
    return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def test_replace_then_read_back_entity_with_alias_chunks_and_documents(
    conn: sqlite3.Connection, graph_store: SQLiteGraphStore
) -> None:
    add_documents(conn, 1, 2)
    graph_store.replace_document(1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    graph_store.replace_document(2, "c", "Notes", "notes.txt", graph(2, *NOTES))
    [sbi] = graph_store.entities("c", ["sensor bus interface"])
    assert sbi.name == "Sensor Bus Interface" and sbi.aliases == ("sbi",)
    assert sbi.chunk_ids == (10, 20) and sbi.doc_ids == (1, 2)
    # the notes write "SBI" alone: an entity of its own there, an alias in the manual
    assert graph_store.match_names("c", ["sbi", "nothing"]) == {
        "sbi": {"sbi", "sensor bus interface"}
    }


def test_reads_are_scoped_to_the_collection(
    conn: sqlite3.Connection, graph_store: SQLiteGraphStore
) -> None:
    add_documents(conn, 1, 2)
    graph_store.replace_document(1, "a", "Pump manual", "pump.pdf", graph(1, *PUMP))
    assert graph_store.match_names("b", ["sbi"]) == {}
    assert graph_store.entities("b", ["sensor bus interface"]) == []
    assert graph_store.edges("b", ["controller firmware"]) == []
    assert graph_store.snapshot("b").entities == ()


def test_edges_merge_documents_and_keep_chunk_evidence(
    conn: sqlite3.Connection, graph_store: SQLiteGraphStore
) -> None:
    add_documents(conn, 1)
    graph_store.replace_document(1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    typed = {
        (r.source, r.target, r.kind, r.chunk_ids)
        for r in graph_store.edges("c", ["controller firmware"])
        if r.kind != "mentions_with"
    }
    assert typed == {
        ("controller firmware", "sensor bus interface", "depends_on", (10,)),
        ("valve controller", "controller firmware", "requires", (11,)),
    }


def test_edges_can_be_limited_to_documents_from_given_sources(
    conn: sqlite3.Connection, graph_store: SQLiteGraphStore
) -> None:
    add_documents(conn, 1, 2)
    graph_store.replace_document(1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    graph_store.replace_document(2, "c", "Notes", "notes.txt", graph(2, *NOTES))
    edges = graph_store.edges("c", ["valve controller"], sources=["notes.txt"])
    assert edges and all(set(r.chunk_ids) <= {20} for r in edges)


def test_re_ingest_replaces_everything_the_document_contributed(
    conn: sqlite3.Connection, graph_store: SQLiteGraphStore
) -> None:
    add_documents(conn, 1)
    graph_store.replace_document(1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    graph_store.replace_document(1, "c", "Pump manual", "pump.pdf", graph(1, "The Cooling Loop."))
    assert graph_store.match_names("c", ["sbi"]) == {}
    assert [e.key for e in graph_store.snapshot("c").entities] == ["cooling loop"]


def test_failed_replace_leaves_the_previous_graph(
    conn: sqlite3.Connection, graph_store: SQLiteGraphStore
) -> None:
    add_documents(conn, 1)
    graph_store.replace_document(1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    broken = DocumentGraph(
        entities=(Entity("x", "X", "name"), Entity("x", "X", "name")),  # same key twice
    )
    with pytest.raises(sqlite3.IntegrityError):
        graph_store.replace_document(1, "c", "Pump manual", "pump.pdf", broken)
    assert graph_store.match_names("c", ["sbi"]) == {"sbi": {"sensor bus interface"}}
    assert not conn.in_transaction


def test_replace_joins_a_transaction_the_caller_has_open(conn: sqlite3.Connection) -> None:
    add_documents(conn, 1)
    conn.execute("BEGIN")
    replace_document(conn, 1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    conn.execute("ROLLBACK")
    assert count(conn, "graph_entities") == 0


def test_deleting_the_document_row_deletes_its_graph(conn: sqlite3.Connection) -> None:
    add_documents(conn, 1, 2)
    replace_document(conn, 1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    replace_document(conn, 2, "c", "Notes", "notes.txt", graph(2, *NOTES))
    conn.execute("DELETE FROM documents WHERE id = 1")
    for table in ("graph_entities", "graph_mentions", "graph_names", "graph_relations"):
        assert conn.execute(f"SELECT COUNT(*) FROM {table} WHERE doc_id = 1").fetchone()[0] == 0
    assert count(conn, "graph_doc_links") == 0
    assert count(conn, "graph_entities") > 0  # the other document's graph stays


def test_delete_document_removes_its_rows_and_links(conn: sqlite3.Connection) -> None:
    add_documents(conn, 1, 2)
    replace_document(conn, 1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    replace_document(conn, 2, "c", "Notes", "notes.txt", graph(2, *NOTES))
    delete_document(conn, 2)
    store = SQLiteGraphStore(conn)
    assert store.related_documents("c", 1) == []
    assert [d.doc_id for d in store.snapshot("c").documents] == [1]


def test_graph_rows_need_a_stored_document(conn: sqlite3.Connection) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        replace_document(conn, 99, "c", "Ghost", "ghost.txt", graph(99, *PUMP))


def test_related_documents_lists_explicit_and_implicit_links_strongest_first(
    conn: sqlite3.Connection, graph_store: SQLiteGraphStore
) -> None:
    add_documents(conn, 1, 2, 3)
    graph_store.replace_document(1, "c", "Pump manual", "pump-manual.pdf", graph(1, *PUMP))
    graph_store.replace_document(2, "c", "Notes", "notes.txt", graph(2, *NOTES))
    graph_store.replace_document(
        3, "c", "Checklist", "check.txt", graph(3, "Before work, read pump-manual.pdf first.")
    )
    links = graph_store.related_documents("c", 1)
    assert {(k.documents, k.kind) for k in links} == {((1, 2), "implicit"), ((3, 1), "explicit")}
    assert links == sorted(links, key=lambda k: -k.strength)
    assert graph_store.related_documents("c", 1, min_strength=0.99) == []


def test_links_found_when_the_cited_document_arrives_after_the_citing_one(
    conn: sqlite3.Connection, graph_store: SQLiteGraphStore
) -> None:
    add_documents(conn, 1, 2)
    graph_store.replace_document(
        1, "c", "Checklist", "check.txt", graph(1, "Before work, read pump-manual.pdf first.")
    )
    links = graph_store.replace_document(2, "c", "Pump manual", "pump-manual.pdf", graph(2, *PUMP))
    assert [(k.documents, k.kind) for k in links] == [((1, 2), "explicit")]


def test_snapshot_holds_documents_entities_relations_and_links(
    conn: sqlite3.Connection, graph_store: SQLiteGraphStore
) -> None:
    add_documents(conn, 1, 2)
    graph_store.replace_document(1, "c", "Pump manual", "pump.pdf", graph(1, *PUMP))
    graph_store.replace_document(2, "c", "Notes", "notes.txt", graph(2, *NOTES))
    snap = graph_store.snapshot("c")
    assert [d.source for d in snap.documents] == ["pump.pdf", "notes.txt"]
    assert {"controller firmware", "valve controller"} <= {e.key for e in snap.entities}
    assert Relation in {type(r) for r in snap.relations}
    assert [k.documents for k in snap.links] == [(1, 2)]
