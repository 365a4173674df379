"""The numbered migrations of the SQLite store: in order, each in one transaction with its
version, once; a store of a newer release refused; stale data said so."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from citewise.assistant.inside import inside
from citewise.db.migrations import Migration, migrate, run_script, schema_version
from citewise.errors import StoreError
from citewise.store.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from citewise.store.sqlite.store import SQLiteStore
from store.documents import new_document


def _conn(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def test_a_new_store_runs_every_migration_once(tmp_path: Path) -> None:
    conn = _conn(tmp_path / "s.db")
    assert migrate(conn, MIGRATIONS) == list(range(1, SCHEMA_VERSION + 1))
    assert migrate(conn, MIGRATIONS) == []
    assert schema_version(conn) == SCHEMA_VERSION


def test_a_failing_migration_leaves_the_store_at_the_version_before(tmp_path: Path) -> None:
    conn = _conn(tmp_path / "s.db")
    migrate(conn, MIGRATIONS)
    broken = Migration(
        SCHEMA_VERSION + 1,
        "half done",
        run_script("ALTER TABLE chunks ADD COLUMN note TEXT;\nSELECT * FROM no_such_table;"),
    )
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, (*MIGRATIONS, broken))
    assert schema_version(conn) == SCHEMA_VERSION
    assert "note" not in {r[1] for r in conn.execute("PRAGMA table_info(chunks)")}


def test_a_new_column_is_one_more_numbered_migration(tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "s.db").close()
    conn = _conn(tmp_path / "s.db")
    note = Migration(SCHEMA_VERSION + 1, "chunk notes", run_script(
        "ALTER TABLE chunks ADD COLUMN note TEXT;"))  # fmt: skip
    assert migrate(conn, (*MIGRATIONS, note)) == [SCHEMA_VERSION + 1]
    assert "note" in {r[1] for r in conn.execute("PRAGMA table_info(chunks)")}


def test_migrations_must_be_numbered_in_order(tmp_path: Path) -> None:
    gap = Migration(SCHEMA_VERSION + 2, "skips one", run_script(""))
    with pytest.raises(ValueError, match="numbered"):
        migrate(_conn(tmp_path / "s.db"), (*MIGRATIONS, gap))


def test_a_store_written_by_a_newer_release_is_refused(tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "s.db").close()
    conn = _conn(tmp_path / "s.db")
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer citewise"):
        SQLiteStore(tmp_path / "s.db")


def test_a_migration_that_makes_vectors_stale_says_so_at_open(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    store.add_document(new_document("a.txt", "Rotate the logs nightly."))
    store.close()
    remake = Migration(SCHEMA_VERSION + 1, "new vectors", run_script(
        "DELETE FROM vectors;\nUPDATE chunks SET has_vector = 0;\n"
        "INSERT INTO meta(key, value) VALUES ('reindex', 'the vectors are made anew');"
    ))  # fmt: skip
    conn = _conn(tmp_path / "s.db")
    migrate(conn, (*MIGRATIONS, remake))
    # this release knows no version past its own: back to it, as if it had run `remake`
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION,))
    with caplog.at_level(logging.WARNING):
        reopened = SQLiteStore(tmp_path / "s.db")
    try:
        assert reopened.reindex_reason() == "the vectors are made anew"
        assert "citewise reindex" in caplog.text
        reopened.clear_reindex()
        assert reopened.reindex_reason() is None
    finally:
        reopened.close()


def test_processes_opening_a_new_store_at_once_migrate_it_once(tmp_path: Path) -> None:
    import threading

    errors: list[BaseException] = []

    def open_it() -> None:
        try:
            conn = sqlite3.connect(tmp_path / "s.db", isolation_level=None, timeout=30)
            migrate(conn, MIGRATIONS)
            conn.close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert schema_version(_conn(tmp_path / "s.db")) == SCHEMA_VERSION


def test_users_and_memory_keep_their_own_versions_beside_the_stores(tmp_path: Path) -> None:
    from citewise.assistant import Assistant

    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        a.documents(), a.users.list_users(), inside(a).memory.sessions()  # each opened once
    store = _conn(tmp_path / "data" / "citewise.db")
    assert schema_version(store) == SCHEMA_VERSION
    assert schema_version(store, "auth_schema_version") == 1
    assert schema_version(_conn(tmp_path / "data" / "memory.db"), "memory_schema_version") == 1


def test_a_memory_written_by_a_newer_release_is_refused(tmp_path: Path) -> None:
    from citewise.chat.memory import SQLiteMemory
    from citewise.errors import MemoryBackendError

    SQLiteMemory(tmp_path / "memory.db").close()
    _conn(tmp_path / "memory.db").execute(
        "UPDATE meta SET value = '99' WHERE key = 'memory_schema_version'"
    )
    with pytest.raises(MemoryBackendError, match="newer citewise"):
        SQLiteMemory(tmp_path / "memory.db")
