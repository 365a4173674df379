"""The graph's tables in the SQLite store's file, over the store's own connection.

`apply_schema(conn)` creates them (idempotent); every table references `documents(id)` with
ON DELETE CASCADE, so deleting a document (with `PRAGMA foreign_keys=ON`) deletes its graph.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from citewise.graph.model import DocumentGraph, DocumentLink
from citewise.graph.sql import SQLGraphStore

SCHEMA = """
CREATE TABLE IF NOT EXISTS graph_documents (
    doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    collection TEXT NOT NULL,
    title TEXT NOT NULL,
    source TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS graph_documents_by_collection ON graph_documents(collection, source);
CREATE TABLE IF NOT EXISTS graph_entities (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection TEXT NOT NULL,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    PRIMARY KEY (doc_id, key)
);
CREATE INDEX IF NOT EXISTS graph_entities_by_key ON graph_entities(collection, key);
CREATE TABLE IF NOT EXISTS graph_names (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection TEXT NOT NULL,
    key TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('entity', 'alias', 'reference', 'document')),
    entity_key TEXT NOT NULL,
    PRIMARY KEY (doc_id, key, role)
);
CREATE INDEX IF NOT EXISTS graph_names_by_key ON graph_names(collection, key, role);
CREATE INDEX IF NOT EXISTS graph_names_by_entity ON graph_names(collection, entity_key, role);
CREATE TABLE IF NOT EXISTS graph_mentions (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection TEXT NOT NULL,
    key TEXT NOT NULL,
    chunk_id INTEGER NOT NULL,
    PRIMARY KEY (doc_id, key, chunk_id)
);
CREATE INDEX IF NOT EXISTS graph_mentions_by_key ON graph_mentions(collection, key);
CREATE TABLE IF NOT EXISTS graph_relations (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection TEXT NOT NULL,
    source TEXT NOT NULL,
    target TEXT NOT NULL,
    kind TEXT NOT NULL,
    chunk_id INTEGER NOT NULL,
    weight REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS graph_relations_by_doc ON graph_relations(doc_id);
CREATE INDEX IF NOT EXISTS graph_relations_by_source ON graph_relations(collection, source);
CREATE INDEX IF NOT EXISTS graph_relations_by_target ON graph_relations(collection, target);
CREATE TABLE IF NOT EXISTS graph_doc_links (
    collection TEXT NOT NULL,
    source_doc INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    target_doc INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('explicit', 'implicit')),
    strength REAL NOT NULL CHECK (strength >= 0 AND strength <= 1),
    evidence TEXT NOT NULL,
    PRIMARY KEY (source_doc, target_doc, kind)
);
CREATE INDEX IF NOT EXISTS graph_doc_links_by_target ON graph_doc_links(target_doc);
"""


def apply_schema(conn: sqlite3.Connection) -> None:
    """Creates the graph tables beside the store's (its `documents` table is referenced)."""
    with _transaction(conn):
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)


class SQLiteGraphStore(SQLGraphStore):
    """The graph over a SQLite connection, or a function giving the calling thread's own
    (the store's `ThreadConnections`)."""

    def __init__(self, conn: sqlite3.Connection | Callable[[], sqlite3.Connection]) -> None:
        # a connection (or a wrapper of one) has `execute`; a factory is called for one
        connect: Callable[[], sqlite3.Connection] = (
            conn if not hasattr(conn, "execute") else (lambda: conn)  # type: ignore[assignment,return-value]
        )
        super().__init__(connect, lambda: _transaction(connect()))


def replace_document(
    conn: sqlite3.Connection,
    doc_id: int,
    collection: str,
    title: str,
    source: str,
    graph: DocumentGraph,
) -> list[DocumentLink]:
    return SQLiteGraphStore(lambda: conn).replace_document(doc_id, collection, title, source, graph)


def delete_document(conn: sqlite3.Connection, doc_id: int) -> None:
    SQLiteGraphStore(conn).delete_document(doc_id)


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """Its own IMMEDIATE transaction, or a part of the caller's when one is open."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
