"""The graph's tables in the SQLite store's file, over the store's own connection.

`apply_schema(conn)` creates them (idempotent); every table references `documents(id)` with
ON DELETE CASCADE, so deleting a document (with `PRAGMA foreign_keys=ON`) deletes its graph.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from citewise.graph.model import DocumentGraph, DocumentLink
from citewise.graph.schema import render
from citewise.graph.sql import SQLGraphStore

SCHEMA = render("sqlite")


def apply_schema(conn: sqlite3.Connection) -> None:
    """Creates the graph tables beside the store's (its `documents` table is referenced)."""
    with _transaction(conn):
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)


class SQLiteGraphStore(SQLGraphStore):
    """The graph over SQLite: `over(conn)` reads and writes through one connection,
    `per_thread(connect)` through the calling thread's own (the store's `ThreadConnections`)."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        super().__init__(connect, lambda: _transaction(connect()))

    @classmethod
    def over(cls, conn: sqlite3.Connection) -> SQLiteGraphStore:
        return cls(lambda: conn)

    @classmethod
    def per_thread(cls, connect: Callable[[], sqlite3.Connection]) -> SQLiteGraphStore:
        return cls(connect)


def replace_document(
    conn: sqlite3.Connection,
    doc_id: int,
    collection: str,
    title: str,
    source: str,
    graph: DocumentGraph,
) -> list[DocumentLink]:
    return SQLiteGraphStore.over(conn).replace_document(doc_id, collection, title, source, graph)


def delete_document(conn: sqlite3.Connection, doc_id: int) -> None:
    SQLiteGraphStore.over(conn).delete_document(doc_id)


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
