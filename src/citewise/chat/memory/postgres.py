"""Conversation memory in PostgreSQL: chosen when the store is PostgreSQL, so every API
process on every machine that shares the database shares the conversations.

The tables mirror the SQLite backend's (`memory_sessions`, `memory_turns`), created by named
migrations (`db.postgres.migrate`). Every session row carries `expires_at`; reads
see only live sessions and writes purge expired ones first. A pool of connections
(psycopg-pool) makes the memory safe to share between threads; each write is one
transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from citewise.chat.memory.base import DEFAULT_TTL_SECONDS
from citewise.chat.memory.sql import SqlMemory
from citewise.db.postgres import QmarkConnection, migrated_pool
from citewise.db.sql import SqlConn
from citewise.errors import InputError, MemoryBackendError, StoreError
from citewise.text.urls import redact_url

Conn = psycopg.Connection[tuple[Any, ...]]

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "memory_0001_sessions",
        """
        CREATE TABLE memory_sessions (
            session_id    text PRIMARY KEY,
            created_at    double precision NOT NULL,
            updated_at    double precision NOT NULL,
            expires_at    double precision NOT NULL,
            summary       text,
            covered_turns integer NOT NULL DEFAULT 0
        );
        CREATE INDEX memory_sessions_expires ON memory_sessions (expires_at);
        CREATE TABLE memory_turns (
            turn_id    bigserial PRIMARY KEY,
            session_id text NOT NULL REFERENCES memory_sessions(session_id) ON DELETE CASCADE,
            data       text NOT NULL
        );
        CREATE INDEX memory_turns_session ON memory_turns (session_id, turn_id);
        """,
    ),
)


class PostgresMemory(SqlMemory):
    """`clock` (seconds since the epoch) is injectable so tests can expire sessions."""

    def __init__(
        self,
        url: str,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        *,
        pool_size: int = 4,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if ttl_seconds <= 0:
            raise InputError(f"memory TTL must be positive, got {ttl_seconds}")
        shown = redact_url(url)
        super().__init__(_PostgresMemoryDb(url, shown, pool_size), shown, ttl_seconds, clock)


class _PostgresMemoryDb:
    """A pool of connections; each write is one transaction that locks the session's row
    where it reads before it writes."""

    def __init__(self, url: str, shown: str, pool_size: int) -> None:
        self.url = shown
        try:
            self._pool = migrated_pool(url, MIGRATIONS, name="citewise-memory", size=pool_size)
        except (psycopg.Error, StoreError) as exc:
            raise MemoryBackendError(f"cannot open conversation memory {shown}: {exc}") from exc

    @contextmanager
    def connection(self) -> Iterator[SqlConn]:
        try:
            with self._pool.connection() as conn:
                yield QmarkConnection(conn)
        except psycopg.Error as exc:
            raise MemoryBackendError(f"conversation memory {self.url} failed: {exc}") from exc

    @contextmanager
    def transaction(self) -> Iterator[SqlConn]:
        try:
            with self._pool.connection() as conn, conn.transaction():
                yield QmarkConnection(conn)
        except psycopg.Error as exc:
            raise MemoryBackendError(f"conversation memory {self.url} failed: {exc}") from exc

    def lock_session(self, conn: SqlConn, session_id: str) -> None:
        conn.execute("SELECT 1 FROM memory_sessions WHERE session_id = ? FOR UPDATE", (session_id,))

    def close(self) -> None:
        self._pool.close()
