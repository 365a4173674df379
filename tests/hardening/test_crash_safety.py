"""kill -9 of an ingest at 20 points — while parsing, before the commit of a document's
insert, of a batch of vectors, of the swap of a replacement, of a prune — leaves a store
whose tables and indexes agree, and the next run completes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardening.consistency import index_problems, table_problems, vector_problems
from hardening.crash_child import child_script, expected_words, kill_at_every_phase

pytestmark = pytest.mark.slow

# The child ingests with --prune and stops, frozen, at the n-th occurrence of its phase:
# inside a parse, or inside an open write transaction just before its COMMIT. It then tells
# the parent, which kills it with SIGKILL.
SQLITE_HOOK = """
class Conn:
    def __init__(self, conn):
        self._conn = conn
    def __getattr__(self, name):
        return getattr(self._conn, name)
    def execute(self, sql, *args):
        if sql == "BEGIN IMMEDIATE":
            local.deleted = False
        elif sql.startswith("DELETE FROM documents"):
            local.deleted = True
        elif sql == "COMMIT":
            before_commit()
        return self._conn.execute(sql, *args)

connect = SQLiteStore._connect
def wrapped_connect(self):
    return Conn(connect(self))
SQLiteStore._connect = wrapped_connect
"""
CHILD = child_script("sqlite.store", "SQLiteStore", SQLITE_HOOK)


def test_twenty_kills_leave_a_consistent_store_that_the_next_run_completes(
    tmp_path: Path,
) -> None:
    def problems(data: Path) -> list[str]:
        db = data / "citewise.db"
        return table_problems(db) + vector_problems(db) + index_problems(data)

    corpus, data, versions = kill_at_every_phase(tmp_path, 20, CHILD, problems)

    # the next, uninterrupted run completes: exactly the files' current versions, all ready
    from citewise.assistant import Assistant

    with Assistant(data_dir=data, embedder="hashing") as a:
        a.ingest([corpus], prune=True)
        assert all(d.status == "ready" for d in a.documents())
    assert table_problems(data / "citewise.db") == []
    assert vector_problems(data / "citewise.db") == []
    assert index_problems(data, expected_words(versions)) == []
