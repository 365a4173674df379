"""What the PostgreSQL backends (the store, users, conversation memory) have in common:
named migrations applied once each, a connection pool opened after them, and, for those
written in shared `?`-placeholder SQL (users, memory), a connection that takes `?` where
psycopg wants `%s`."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from citewise.errors import StoreError

Conn = psycopg.Connection[tuple[Any, ...]]
# a fixed key for pg_advisory_lock: "citewise" in ASCII
MIGRATION_LOCK = 0x63697465776973


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


def migrate(
    conn: psycopg.Connection[tuple[Any, ...]], migrations: tuple[tuple[str, str], ...]
) -> list[str]:
    """Applies the migrations this database lacks; returns their names. Each family (the
    store, conversation memory, users) passes its own list; names are unique across them."""
    applied: list[str] = []
    conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS citewise_migrations"
            " (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {r[0] for r in conn.execute("SELECT name FROM citewise_migrations")}
        for name, sql in migrations:
            if name in done:
                continue
            try:
                with conn.transaction():
                    conn.execute(sql)
                    conn.execute("INSERT INTO citewise_migrations(name) VALUES (%s)", (name,))
            except psycopg.Error as exc:
                extension = re.match(r"\s*CREATE EXTENSION IF NOT EXISTS (\w+)", sql)
                hint = (
                    f" (needs a role allowed to CREATE EXTENSION {extension.group(1)})"
                    if extension
                    else ""
                )
                raise StoreError(f"PostgreSQL migration {name} failed{hint}: {exc}") from exc
            applied.append(name)
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    return applied
