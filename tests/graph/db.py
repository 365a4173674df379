"""Databases holding the graph tables and the one store table they reference (`documents`):
in-memory SQLite, or a fresh PostgreSQL database of the session's server."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from citewise.graph.sql import SQLGraphStore
from citewise.graph.sqlite import apply_schema


def documents_db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("CREATE TABLE documents (id INTEGER PRIMARY KEY)")
    apply_schema(conn)
    return conn


def add_documents(conn: sqlite3.Connection, *ids: int) -> None:
    for doc_id in ids:
        conn.execute("INSERT INTO documents (id) VALUES (?)", (doc_id,))


@dataclass
class Backend:
    """A graph store and plain SQL on its database (`?` placeholders)."""

    store: SQLGraphStore
    sql: Callable[[str, Sequence[Any]], list[tuple[Any, ...]]]

    def add_documents(self, *ids: int) -> None:
        for doc_id in ids:
            self.sql("INSERT INTO documents (id) VALUES (?)", (doc_id,))

    def count(self, table: str, doc_id: int | None = None) -> int:
        if doc_id is None:
            return int(self.sql(f"SELECT COUNT(*) FROM {table}", ())[0][0])
        return int(self.sql(f"SELECT COUNT(*) FROM {table} WHERE doc_id = ?", (doc_id,))[0][0])
