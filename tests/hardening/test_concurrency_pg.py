"""The concurrency tests of `test_concurrency` on one PostgreSQL store: two ingest processes
at once store each file once; searches and questions during an ingest never fail or repeat a
chunk; a replace racing searches always finds exactly one version."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardening import test_concurrency as on_sqlite
from hardening.consistency import index_problems
from hardening.pg_consistency import pg_table_problems, pg_vector_problems

pytestmark = [pytest.mark.slow, pytest.mark.integration]


@pytest.fixture
def pg_store(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every Assistant here and in the child processes uses this database."""
    monkeypatch.setenv("CITEWISE_STORE", postgres_url)
    return postgres_url


def test_two_ingest_processes_on_one_postgresql_store_store_each_file_once(
    tmp_path: Path, pg_store: str
) -> None:
    corpus, data = tmp_path / "docs", tmp_path / "data"
    expected = on_sqlite._corpus(corpus, 30)
    children = [on_sqlite._start(on_sqlite.INGEST, corpus, data, 2) for _ in range(2)]
    for child in children:
        on_sqlite._finish(child)
    assert pg_table_problems(pg_store) + pg_vector_problems(pg_store) == []
    assert index_problems(data, expected) == []
    assert not (data / "citewise.db").exists()  # the runs really used PostgreSQL


def test_searches_during_an_ingest_on_postgresql_never_fail_or_repeat_a_chunk(
    tmp_path: Path, pg_store: str
) -> None:
    on_sqlite.test_searches_during_an_ingest_never_fail_or_repeat_a_chunk(tmp_path)
    assert pg_table_problems(pg_store) + pg_vector_problems(pg_store) == []


def test_a_replace_racing_searches_on_postgresql_always_finds_exactly_one_version(
    tmp_path: Path, pg_store: str
) -> None:
    on_sqlite.test_a_replace_racing_searches_always_finds_exactly_one_version(tmp_path)
    assert pg_table_problems(pg_store) + pg_vector_problems(pg_store) == []
