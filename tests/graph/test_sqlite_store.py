"""What only the SQLite backend does: the module functions the store calls on its own
connection, inside or outside a transaction it has open."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

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
    assert SQLiteGraphStore.over(conn).match_names("c", ["sbi"]) == {
        "sbi": {"sensor bus interface"}
    }
    delete_document(conn, 1)
    assert conn.execute("SELECT COUNT(*) FROM graph_names").fetchone()[0] == 0


def test_schema_can_be_applied_again(conn: sqlite3.Connection) -> None:
    apply_schema(conn)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {
        "graph_documents", "graph_entities", "graph_names", "graph_mentions", "graph_relations",
        "graph_doc_links",
    } <= tables  # fmt: skip


def test_store_over_a_connection_factory_reads_from_each_threads_own(tmp_path: Path) -> None:
    path = tmp_path / "graph.db"
    local = threading.local()

    def connect() -> sqlite3.Connection:
        if not hasattr(local, "conn"):
            local.conn = sqlite3.connect(path, isolation_level=None)
            local.conn.execute("PRAGMA foreign_keys=ON")
        return local.conn  # type: ignore[no-any-return]

    connect().execute("CREATE TABLE documents (id INTEGER PRIMARY KEY)")
    apply_schema(connect())
    add_documents(connect(), 1)
    store = SQLiteGraphStore.per_thread(connect)
    store.replace_document(1, "c", "Pump manual", "pump.pdf", extract([ChunkText(1, TEXT)]))
    seen: list[dict[str, set[str]]] = []
    reader = threading.Thread(target=lambda: seen.append(store.match_names("c", ["sbi"])))
    reader.start()
    reader.join()
    assert seen == [{"sbi": {"sensor bus interface"}}]
