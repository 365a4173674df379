"""The crash-injection test of `test_crash_safety` on the PostgreSQL store: kill -9 of an
ingest while parsing, before the commit of a document's insert, of a batch of vectors, of the
swap of a replacement, of a prune, leaves a store whose tables and indexes agree (checked
through SQL and through every search), and the next run completes it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hardening.consistency import index_problems
from hardening.crash_child import child_script
from hardening.pg_consistency import pg_stored_words, pg_table_problems, pg_vector_problems
from hardening.test_crash_safety import PHASES, _expected, _mutate, _run_child, write_file

pytestmark = [pytest.mark.slow, pytest.mark.integration]

KILLS = 20

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
CHILD = child_script("postgres", "PostgresStore", PG_HOOK)


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
    rng = random.Random(23)
    corpus, data, marker = tmp_path / "docs", tmp_path / "data", tmp_path / "marker"
    corpus.mkdir()
    versions = {i: 0 for i in range(12)}
    for i in versions:
        write_file(corpus, i, 0)
    next_index = len(versions)
    kills: list[str] = []
    attempts = 0
    while len(kills) < KILLS and attempts < KILLS * 2:
        attempts += 1
        phase = PHASES[len(kills) % len(PHASES)]
        next_index = _mutate(corpus, versions, rng, next_index)
        if _run_child(corpus, data, marker, phase, rng.randint(1, 2), CHILD):
            kills.append(phase)
            problems = _problems(postgres_url, data)
            assert not problems, f"after kill {len(kills)} ({phase}): {problems}"
    assert len(kills) == KILLS, f"only {len(kills)} kills landed: {kills}"
    assert {p: kills.count(p) for p in PHASES} == dict.fromkeys(PHASES, KILLS // len(PHASES))

    from citewise.app import Assistant

    with Assistant(data_dir=data, embedder="hashing") as a:
        a.ingest([corpus], prune=True)
        assert all(d.status == "ready" for d in a.documents())
    assert _problems(postgres_url, data, _expected(versions)) == []
