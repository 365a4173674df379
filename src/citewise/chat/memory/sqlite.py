"""Conversation memory in one SQLite file (WAL): the embedded default.

Tables are prefixed `memory_` so the file may be shared with the document store. Every
session row carries `expires_at`; expired sessions are purged lazily on the next call, and
until then no query sees them. One connection, shared across threads behind a lock.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from citewise.chat.memory.base import (
    DEFAULT_TTL_SECONDS,
    MemoryBase,
    SessionInfo,
    Turn,
    validate_session_id,
)
from citewise.errors import InputError, MemoryBackendError, NotFoundError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS memory_sessions (
    session_id    TEXT PRIMARY KEY,
    created_at    REAL NOT NULL,
    updated_at    REAL NOT NULL,
    expires_at    REAL NOT NULL,
    summary       TEXT,
    covered_turns INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS memory_sessions_expires ON memory_sessions(expires_at);
CREATE TABLE IF NOT EXISTS memory_turns (
    turn_id    INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES memory_sessions(session_id) ON DELETE CASCADE,
    data       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_turns_session ON memory_turns(session_id, turn_id);
"""

_INFO_SQL = """
SELECT s.session_id, (SELECT COUNT(*) FROM memory_turns t WHERE t.session_id = s.session_id),
       s.created_at, s.updated_at, s.summary IS NOT NULL, s.covered_turns, s.expires_at
FROM memory_sessions s WHERE s.expires_at > ?
"""


class SQLiteMemory(MemoryBase):
    """`clock` (seconds since the epoch) is injectable so tests can expire sessions."""

    def __init__(
        self,
        path: Path | str,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if ttl_seconds <= 0:
            raise InputError(f"memory TTL must be positive, got {ttl_seconds}")
        self.path = Path(path)
        self.url = f"sqlite:///{self.path}"
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, check_same_thread=False, timeout=10.0, isolation_level=None
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise MemoryBackendError(f"cannot open conversation memory {self.url}: {exc}") from exc

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One locked transaction with expired sessions purged first."""
        with self._lock:
            self._check_open()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.execute(
                        "DELETE FROM memory_sessions WHERE expires_at <= ?", (self._clock(),)
                    )
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise MemoryBackendError(f"conversation memory {self.url} failed: {exc}") from exc

    def _touch(self, db: sqlite3.Connection, session_id: str) -> bool:
        now = self._clock()
        cur = db.execute(
            "UPDATE memory_sessions SET updated_at = ?, expires_at = ? WHERE session_id = ?",
            (now, now + self.ttl_seconds, session_id),
        )
        return cur.rowcount > 0

    def append(self, turn: Turn) -> None:
        validate_session_id(turn.session_id)
        with self._tx() as db:
            if not self._touch(db, turn.session_id):
                now = self._clock()
                db.execute(
                    "INSERT INTO memory_sessions (session_id, created_at, updated_at, expires_at)"
                    " VALUES (?, ?, ?, ?)",
                    (turn.session_id, now, now, now + self.ttl_seconds),
                )
            db.execute(
                "INSERT INTO memory_turns (session_id, data) VALUES (?, ?)",
                (turn.session_id, turn.to_json()),
            )

    def turns(self, session_id: str, last: int | None = None) -> list[Turn]:
        validate_session_id(session_id)
        if last is not None and last <= 0:
            return []
        with self._tx() as db:
            rows = db.execute(
                "SELECT data FROM memory_turns WHERE session_id = ? ORDER BY turn_id DESC LIMIT ?",
                (session_id, -1 if last is None else last),
            ).fetchall()
        return [Turn.from_json(row[0]) for row in reversed(rows)]

    def summary(self, session_id: str) -> str | None:
        validate_session_id(session_id)
        with self._tx() as db:
            row = db.execute(
                "SELECT summary FROM memory_sessions WHERE session_id = ?", (session_id,)
            ).fetchone()
        return None if row is None else row[0]

    def set_summary(self, session_id: str, summary: str, covered_turns: int) -> None:
        validate_session_id(session_id)
        with self._tx() as db:
            info = self._info(db, session_id)
            if info is None:
                raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
            if not 0 <= covered_turns <= info.turns:
                raise InputError(
                    f"a summary can cover 0..{info.turns} turns of {session_id!r}, "
                    f"not {covered_turns}"
                )
            db.execute(
                "UPDATE memory_sessions SET summary = ?, covered_turns = ? WHERE session_id = ?",
                (summary, covered_turns, session_id),
            )
            self._touch(db, session_id)

    def _info(self, db: sqlite3.Connection, session_id: str) -> SessionInfo | None:
        row = db.execute(_INFO_SQL + " AND s.session_id = ?", (self._clock(), session_id))
        found = row.fetchone()
        return None if found is None else _to_info(found)

    def info(self, session_id: str) -> SessionInfo | None:
        validate_session_id(session_id)
        with self._tx() as db:
            return self._info(db, session_id)

    def sessions(self) -> list[SessionInfo]:
        with self._tx() as db:
            rows = db.execute(_INFO_SQL + " ORDER BY s.updated_at DESC", (self._clock(),))
            return [_to_info(row) for row in rows.fetchall()]

    def delete(self, session_id: str) -> bool:
        validate_session_id(session_id)
        with self._tx() as db:
            cur = db.execute("DELETE FROM memory_sessions WHERE session_id = ?", (session_id,))
            return cur.rowcount > 0

    def clear(self, session_id: str) -> None:
        validate_session_id(session_id)
        with self._tx() as db:
            if not self._touch(db, session_id):
                raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
            db.execute("DELETE FROM memory_turns WHERE session_id = ?", (session_id,))
            db.execute(
                "UPDATE memory_sessions SET summary = NULL, covered_turns = 0 WHERE session_id = ?",
                (session_id,),
            )

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()


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
