"""What only the SQLite backend does: the module functions the store calls on its own
connection, inside or outside a transaction it has open."""

from __future__ import annotations

import sqlite3

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText
from citewise.graph.sqlite import SQLiteGraphStore, apply_schema, delete_document, replace_document
from graph.db import add_documents

TEXT = "The Controller Firmware depends on the Sensor Bus Interface (SBI)."


def test_replace_joins_a_transaction_the_caller_has_open(conn: sqlite3.Connection) -> None:
    add_documents(conn, 1)
    conn.execute("BEGIN")
    replace_document(conn, 1, "c", "Pump manual", "pump.pdf", extract([ChunkText(1, TEXT)]))
    conn.execute("ROLLBACK")
    assert conn.execute("SELECT COUNT(*) FROM graph_entities").fetchone()[0] == 0


def test_replace_outside_a_transaction_commits_its_own(conn: sqlite3.Connection) -> None:
    add_documents(conn, 1)
    replace_document(conn, 1, "c", "Pump manual", "pump.pdf", extract([ChunkText(1, TEXT)]))
    assert not conn.in_transaction
    assert SQLiteGraphStore(conn).match_names("c", ["sbi"]) == {"sbi": {"sensor bus interface"}}
    delete_document(conn, 1)
    assert conn.execute("SELECT COUNT(*) FROM graph_names").fetchone()[0] == 0


def test_schema_can_be_applied_again(conn: sqlite3.Connection) -> None:
    apply_schema(conn)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {
        "graph_documents", "graph_entities", "graph_names", "graph_mentions", "graph_relations",
        "graph_doc_links",
    } <= tables  # fmt: skip
