"""Conversation memory in PostgreSQL: chosen when the store is PostgreSQL, so every API
process on every machine that shares the database shares the conversations.

The tables mirror the SQLite backend's (`memory_sessions`, `memory_turns`), created by named
migrations (`store.postgres_schema.migrate`). Every session row carries `expires_at`; reads
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
from psycopg_pool import ConnectionPool

from citewise.chat.memory.base import (
    DEFAULT_TTL_SECONDS,
    MemoryBase,
    SessionInfo,
    Turn,
    redact_url,
    validate_session_id,
)
from citewise.errors import InputError, MemoryBackendError, NotFoundError, StoreError
from citewise.store.postgres_schema import migrate

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

_INFO_SQL = """
SELECT s.session_id, (SELECT count(*) FROM memory_turns t WHERE t.session_id = s.session_id),
       s.created_at, s.updated_at, s.summary IS NOT NULL, s.covered_turns, s.expires_at
FROM memory_sessions s WHERE s.expires_at > %s
"""


class PostgresMemory(MemoryBase):
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
        self.url = redact_url(url)
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                migrate(conn, MIGRATIONS)
            self._pool = ConnectionPool(
                url,
                min_size=1,
                max_size=max(1, pool_size),
                kwargs={"autocommit": True},
                check=ConnectionPool.check_connection,
                open=True,
                name="citewise-memory",
            )
        except (psycopg.Error, StoreError) as exc:
            raise MemoryBackendError(f"cannot open conversation memory {self.url}: {exc}") from exc

    @contextmanager
    def _conn(self) -> Iterator[Conn]:
        self._check_open()
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.Error as exc:
            raise MemoryBackendError(f"conversation memory {self.url} failed: {exc}") from exc

    @contextmanager
    def _tx(self) -> Iterator[Conn]:
        """One transaction with expired sessions purged first."""
        with self._conn() as conn, conn.transaction():
            conn.execute("DELETE FROM memory_sessions WHERE expires_at <= %s", (self._clock(),))
            yield conn

    def _touch(self, conn: Conn, session_id: str) -> bool:
        now = self._clock()
        cur = conn.execute(
            "UPDATE memory_sessions SET updated_at = %s, expires_at = %s WHERE session_id = %s",
            (now, now + self.ttl_seconds, session_id),
        )
        return cur.rowcount > 0

    def append(self, turn: Turn) -> None:
        validate_session_id(turn.session_id)
        now = self._clock()
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO memory_sessions (session_id, created_at, updated_at, expires_at)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT (session_id)"
                " DO UPDATE SET updated_at = excluded.updated_at, expires_at = excluded.expires_at",
                (turn.session_id, now, now, now + self.ttl_seconds),
            )
            conn.execute(
                "INSERT INTO memory_turns (session_id, data) VALUES (%s, %s)",
                (turn.session_id, turn.to_json()),
            )

    def turns(self, session_id: str, last: int | None = None) -> list[Turn]:
        validate_session_id(session_id)
        if last is not None and last <= 0:
            return []
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT t.data FROM memory_turns t JOIN memory_sessions s"
                " ON s.session_id = t.session_id WHERE t.session_id = %s AND s.expires_at > %s"
                " ORDER BY t.turn_id DESC LIMIT %s",
                (session_id, self._clock(), last),
            ).fetchall()
        return [Turn.from_json(row[0]) for row in reversed(rows)]

    def summary(self, session_id: str) -> str | None:
        validate_session_id(session_id)
        with self._conn() as conn:
            row = conn.execute(
                "SELECT summary FROM memory_sessions WHERE session_id = %s AND expires_at > %s",
                (session_id, self._clock()),
            ).fetchone()
        return None if row is None else row[0]

    def set_summary(self, session_id: str, summary: str, covered_turns: int) -> None:
        validate_session_id(session_id)
        with self._tx() as conn:
            # the row lock keeps a concurrent append from changing the count meanwhile
            conn.execute(
                "SELECT 1 FROM memory_sessions WHERE session_id = %s FOR UPDATE", (session_id,)
            )
            info = self._info(conn, session_id)
            if info is None:
                raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
            if not 0 <= covered_turns <= info.turns:
                raise InputError(
                    f"a summary can cover 0..{info.turns} turns of {session_id!r}, "
                    f"not {covered_turns}"
                )
            conn.execute(
                "UPDATE memory_sessions SET summary = %s, covered_turns = %s WHERE session_id = %s",
                (summary, covered_turns, session_id),
            )
            self._touch(conn, session_id)

    def _info(self, conn: Conn, session_id: str) -> SessionInfo | None:
        found = conn.execute(
            _INFO_SQL + " AND s.session_id = %s", (self._clock(), session_id)
        ).fetchone()
        return None if found is None else _to_info(found)

    def info(self, session_id: str) -> SessionInfo | None:
        validate_session_id(session_id)
        with self._conn() as conn:
            return self._info(conn, session_id)

    def sessions(self) -> list[SessionInfo]:
        with self._conn() as conn:
            rows = conn.execute(_INFO_SQL + " ORDER BY s.updated_at DESC", (self._clock(),))
            return [_to_info(row) for row in rows.fetchall()]

    def delete(self, session_id: str) -> bool:
        validate_session_id(session_id)
        with self._tx() as conn:
            cur = conn.execute("DELETE FROM memory_sessions WHERE session_id = %s", (session_id,))
            return cur.rowcount > 0

    def clear(self, session_id: str) -> None:
        validate_session_id(session_id)
        with self._tx() as conn:
            if not self._touch(conn, session_id):
                raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
            conn.execute("DELETE FROM memory_turns WHERE session_id = %s", (session_id,))
            conn.execute(
                "UPDATE memory_sessions SET summary = NULL, covered_turns = 0"
                " WHERE session_id = %s",
                (session_id,),
            )

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._pool.close()


def _to_info(row: Any) -> SessionInfo:
    sid, turns, created, updated, has_summary, covered, expires = row
    return SessionInfo(
        session_id=str(sid),
        turns=int(turns),
        created_at=float(created),
        updated_at=float(updated),
        has_summary=bool(has_summary),
        covered_turns=int(covered),
        expires_at=float(expires),
    )
