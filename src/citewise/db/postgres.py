"""What the PostgreSQL backends have in common: a connection pool opened after the backend's
own migrations (the store, users, conversation memory), and, for those written in shared
`?`-placeholder SQL (users, memory), a connection that takes `?` where psycopg wants `%s`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from citewise.store.postgres.schema import migrate

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
    url: str,
    migrations: tuple[tuple[str, str], ...],
    *,
    name: str,
    size: int,
    configure: Callable[[Conn], None] | None = None,
) -> ConnectionPool[Conn]:
    """Runs `migrations` (named, each once) and opens an autocommit pool whose connections
    are `configure`d and checked on checkout (a connection the server dropped, on a restart
    or failover, is replaced). Raises psycopg's errors."""
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn, migrations)
    return ConnectionPool(
        url,
        min_size=1,
        max_size=max(1, size),
        kwargs={"autocommit": True},
        configure=configure,
        check=ConnectionPool.check_connection,
        open=True,
        name=name,
    )
