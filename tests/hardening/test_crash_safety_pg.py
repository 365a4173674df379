"""The crash-injection test of `test_crash_safety` on the PostgreSQL store: kill -9 of an
ingest while parsing, before the commit of a document's insert, of a batch of vectors, of the
swap of a replacement, of a prune, leaves a store whose tables and indexes agree (checked
through SQL and through every search), and the next run completes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardening.consistency import index_problems
from hardening.crash_child import child_script, expected_words, kill_at_every_phase
from hardening.pg_consistency import pg_stored_words, pg_table_problems, pg_vector_problems

pytestmark = [pytest.mark.slow, pytest.mark.integration]

# As the SQLite child, but the freeze point is inside `PostgresStore._tx`, after the
# transaction's statements and before its COMMIT.
PG_HOOK = """
class Conn:
    def __init__(self, conn):
        self._conn = conn
    def __getattr__(self, name):
        return getattr(self._conn, name)
    def execute(self, sql, *args, **kwargs):
        if sql.startswith("DELETE FROM documents"):
            local.deleted = True
        return self._conn.execute(sql, *args, **kwargs)

transaction = PostgresStore._tx
@contextmanager
def hooked_tx(self):
    with transaction(self) as conn:
        local.deleted = False
        yield Conn(conn)
        before_commit()
PostgresStore._tx = hooked_tx
"""
CHILD = child_script("postgres.store", "PostgresStore", PG_HOOK)


def _problems(url: str, data: Path, expected: dict[str, str] | None = None) -> list[str]:
    stored = None if expected is not None else pg_stored_words(url)
    return (
        pg_table_problems(url)
        + pg_vector_problems(url)
        + index_problems(data, expected, stored=stored)
    )


def test_kills_leave_a_consistent_postgresql_store_that_the_next_run_completes(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITEWISE_STORE", postgres_url)  # the children inherit it
    corpus, data, versions = kill_at_every_phase(
        tmp_path, 23, CHILD, lambda data: _problems(postgres_url, data)
    )

    from citewise.assistant import Assistant

    with Assistant(data_dir=data, embedder="hashing") as a:
        a.ingest([corpus], prune=True)
        assert all(d.status == "ready" for d in a.documents())
    assert _problems(postgres_url, data, expected_words(versions)) == []
