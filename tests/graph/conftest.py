from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from citewise.graph.sqlite import SQLiteGraphStore
from graph.db import Backend, documents_db


@pytest.fixture
def conn() -> Iterator[sqlite3.Connection]:
    c = documents_db()
    yield c
    c.close()


@pytest.fixture
def graph_store(conn: sqlite3.Connection) -> SQLiteGraphStore:
    return SQLiteGraphStore.over(conn)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """Each graph backend on a fresh database: the same contract tests run on both."""
    if request.param == "sqlite":
        c = documents_db()

        def run(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
            return list(c.execute(sql, tuple(params)).fetchall())

        yield Backend(SQLiteGraphStore.over(c), run)
        c.close()
        return
    import psycopg

    from citewise.db.postgres import to_pyformat
    from citewise.graph.postgres import PostgresGraphStore, apply_schema

    with psycopg.connect(str(request.getfixturevalue("postgres_url")), autocommit=True) as pg:
        pg.execute("CREATE TABLE documents (id bigint PRIMARY KEY)")
        apply_schema(pg)

        def run_pg(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
            cur = pg.execute(to_pyformat(sql), tuple(params))
            return list(cur.fetchall()) if cur.description else []

        yield Backend(PostgresGraphStore(pg), run_pg)
