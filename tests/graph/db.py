"""An in-memory SQLite database holding the graph tables and the one table they reference."""

from __future__ import annotations

import sqlite3

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
