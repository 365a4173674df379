"""Conversation memory in one SQLite file (WAL): the embedded default.

Tables are prefixed `memory_` so the file may be shared with the document store. Every
session row carries `expires_at`; expired sessions are purged lazily on the next call, and
until then no query sees them. One connection, shared across threads behind a lock.
Commits are not synced to disk one by one (`synchronous=NORMAL`, as the document store):
every answer appends a turn, and a sync per turn, made behind the one lock, would line the
answers up behind the disk.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from citewise.chat.memory.base import DEFAULT_TTL_SECONDS
from citewise.chat.memory.sql import SqlMemory
from citewise.db.migrations import Migration, migrate, run_script
from citewise.db.sql import SqlConn
from citewise.db.sqlite import connect
from citewise.errors import InputError, MemoryBackendError, StoreError

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
# Append only, numbered on (docs/upgrades.md); their version is `memory_schema_version`
MIGRATIONS: tuple[Migration, ...] = (Migration(1, "sessions and turns", run_script(_SCHEMA)),)


class SQLiteMemory(SqlMemory):
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
        url = f"sqlite:///{self.path}"
        super().__init__(_SQLiteMemoryDb(self.path, url), url, ttl_seconds, clock)


class _SQLiteMemoryDb:
    """One connection, shared across threads behind a lock; a write transaction is
    BEGIN IMMEDIATE (the one writer), so sessions need no row lock."""

    def __init__(self, path: Path, url: str) -> None:
        self.url = url
        self._lock = threading.RLock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = connect(path, timeout=10.0, synchronous="NORMAL")
            migrate(self._db, MIGRATIONS, key="memory_schema_version")
        except (OSError, sqlite3.Error, StoreError) as exc:
            raise MemoryBackendError(f"cannot open conversation memory {url}: {exc}") from exc

    @contextmanager
    def connection(self) -> Iterator[SqlConn]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise MemoryBackendError(f"conversation memory {self.url} failed: {exc}") from exc

    @contextmanager
    def transaction(self) -> Iterator[SqlConn]:
        with self.connection() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def lock_session(self, conn: SqlConn, session_id: str) -> None:
        """Nothing to do: the write transaction already excludes every other writer."""

    def close(self) -> None:
        with self._lock:
            self._db.close()
