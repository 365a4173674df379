"""Conversation memory over SQL, written once for every SQL backend (`sqlite`, `postgres`).

Two tables, `memory_sessions` and `memory_turns`, prefixed so the file or database may be
shared with the document store. Every session row carries `expires_at`: reads see only live
sessions, and each write transaction purges the expired ones first. Statements use `?`
placeholders in SQL both databases speak; a backend (`MemoryDb`) gives connections, write
transactions and, where its transactions do not already serialise writers, a row lock on a
session.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

from citewise.chat.memory.base import MemoryBase, SessionInfo, Turn, validate_session_id
from citewise.db.sql import SqlConn
from citewise.errors import InputError, NotFoundError

_INFO_SQL = """
SELECT s.session_id, (SELECT COUNT(*) FROM memory_turns t WHERE t.session_id = s.session_id),
       s.created_at, s.updated_at, s.summary IS NOT NULL, s.covered_turns, s.expires_at
FROM memory_sessions s WHERE s.expires_at > ?
"""


class MemoryDb(Protocol):
    """Where a SQL memory's two tables live; its errors are `MemoryBackendError`s."""

    def connection(self) -> AbstractContextManager[SqlConn]:
        """A connection for reads."""
        ...

    def transaction(self) -> AbstractContextManager[SqlConn]:
        """One write transaction."""
        ...

    def lock_session(self, conn: SqlConn, session_id: str) -> None:
        """Holds the session's row until the transaction ends (no-op where a write
        transaction already excludes every other writer)."""
        ...

    def close(self) -> None: ...


class SqlMemory(MemoryBase):
    """The `Memory` protocol over a `MemoryDb`. `clock` (seconds since the epoch) is
    injectable so tests can expire sessions."""

    def __init__(
        self, db: MemoryDb, url: str, ttl_seconds: int, clock: Callable[[], float]
    ) -> None:
        self._db = db
        self.url = url
        self.ttl_seconds = ttl_seconds
        self._clock = clock

    @contextmanager
    def _connection(self) -> Iterator[SqlConn]:
        self._check_open()
        with self._db.connection() as conn:
            yield conn

    @contextmanager
    def _transaction(self) -> Iterator[SqlConn]:
        """One write transaction with expired sessions purged first."""
        self._check_open()
        with self._db.transaction() as conn:
            self._purge(conn)
            yield conn

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._db.close()

    def _purge(self, conn: SqlConn) -> None:
        conn.execute("DELETE FROM memory_sessions WHERE expires_at <= ?", (self._clock(),))

    def _touch(self, conn: SqlConn, session_id: str) -> bool:
        now = self._clock()
        cur = conn.execute(
            "UPDATE memory_sessions SET updated_at = ?, expires_at = ? WHERE session_id = ?",
            (now, now + self.ttl_seconds, session_id),
        )
        return cur.rowcount > 0

    def append(self, turn: Turn) -> None:
        validate_session_id(turn.session_id)
        now = self._clock()
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO memory_sessions (session_id, created_at, updated_at, expires_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (session_id)"
                " DO UPDATE SET updated_at = excluded.updated_at, expires_at = excluded.expires_at",
                (turn.session_id, now, now, now + self.ttl_seconds),
            )
            conn.execute(
                "INSERT INTO memory_turns (session_id, data) VALUES (?, ?)",
                (turn.session_id, turn.to_json()),
            )

    def turns(self, session_id: str, last: int | None = None) -> list[Turn]:
        validate_session_id(session_id)
        if last is not None and last <= 0:
            return []
        sql = (
            "SELECT t.data FROM memory_turns t JOIN memory_sessions s"
            " ON s.session_id = t.session_id WHERE t.session_id = ? AND s.expires_at > ?"
            " ORDER BY t.turn_id DESC"
        )
        params: tuple[object, ...] = (session_id, self._clock())
        if last is not None:
            sql, params = sql + " LIMIT ?", (*params, last)
        with self._connection() as conn:
            rows = conn.execute(sql, params).fetchall()
        return [Turn.from_json(row[0]) for row in reversed(rows)]

    def summary(self, session_id: str) -> str | None:
        validate_session_id(session_id)
        with self._connection() as conn:
            row = conn.execute(
                "SELECT summary FROM memory_sessions WHERE session_id = ? AND expires_at > ?",
                (session_id, self._clock()),
            ).fetchone()
        return None if row is None else row[0]

    def set_summary(self, session_id: str, summary: str, covered_turns: int) -> None:
        validate_session_id(session_id)
        with self._transaction() as conn:
            self._db.lock_session(conn, session_id)  # a concurrent append keeps the count
            info = self._info(conn, session_id)
            if info is None:
                raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
            if not 0 <= covered_turns <= info.turns:
                raise InputError(
                    f"a summary can cover 0..{info.turns} turns of {session_id!r}, "
                    f"not {covered_turns}"
                )
            conn.execute(
                "UPDATE memory_sessions SET summary = ?, covered_turns = ? WHERE session_id = ?",
                (summary, covered_turns, session_id),
            )
            self._touch(conn, session_id)

    def _info(self, conn: SqlConn, session_id: str) -> SessionInfo | None:
        found = conn.execute(
            _INFO_SQL + " AND s.session_id = ?", (self._clock(), session_id)
        ).fetchone()
        return None if found is None else _to_info(found)

    def info(self, session_id: str) -> SessionInfo | None:
        validate_session_id(session_id)
        with self._connection() as conn:
            return self._info(conn, session_id)

    def sessions(self) -> list[SessionInfo]:
        with self._connection() as conn:
            rows = conn.execute(_INFO_SQL + " ORDER BY s.updated_at DESC", (self._clock(),))
            return [_to_info(row) for row in rows.fetchall()]

    def delete(self, session_id: str) -> bool:
        validate_session_id(session_id)
        with self._transaction() as conn:
            cur = conn.execute("DELETE FROM memory_sessions WHERE session_id = ?", (session_id,))
            return cur.rowcount > 0

    def clear(self, session_id: str) -> None:
        validate_session_id(session_id)
        with self._transaction() as conn:
            if not self._touch(conn, session_id):
                raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
            conn.execute("DELETE FROM memory_turns WHERE session_id = ?", (session_id,))
            conn.execute(
                "UPDATE memory_sessions SET summary = NULL, covered_turns = 0 WHERE session_id = ?",
                (session_id,),
            )


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
