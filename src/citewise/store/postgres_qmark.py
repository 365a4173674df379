"""What the PostgreSQL backends written in shared `?`-placeholder SQL (users, conversation
memory) have in common: a connection pool opened after the backend's own migrations, and a
connection that takes `?` where psycopg wants `%s`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from citewise.store.postgres_schema import migrate

Conn = psycopg.Connection[tuple[Any, ...]]


def to_pyformat(sql: str) -> str:
    """`?` placeholders as psycopg's `%s` (the shared SQL holds no other `?` or `%`)."""
    return sql.replace("%", "%%").replace("?", "%s")


class QmarkConnection:
    """A psycopg connection that takes `?` placeholders."""

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[object] = ()) -> psycopg.Cursor[tuple[Any, ...]]:
        return self._conn.execute(to_pyformat(sql), tuple(params))


def migrated_pool(
    url: str, migrations: tuple[tuple[str, str], ...], *, name: str, size: int
) -> ConnectionPool[Conn]:
    """Runs `migrations` (named, each once) and opens an autocommit pool whose connections
    are checked on checkout (a server restart replaces them). Raises psycopg's errors."""
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn, migrations)
    return ConnectionPool(
        url,
        min_size=1,
        max_size=max(1, size),
        kwargs={"autocommit": True},
        check=ConnectionPool.check_connection,
        open=True,
        name=name,
    )
