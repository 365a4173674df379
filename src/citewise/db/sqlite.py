"""SQLite connections, written once for the store, the users and the conversation memory:
`connect` (WAL, foreign keys, autocommit: transactions are explicit) and one connection per
thread (`ThreadConnections`)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

BUSY_TIMEOUT_SECONDS = 30.0
WAL_RETRY_SECONDS = 0.05


def connect(
    path: Path, *, timeout: float = BUSY_TIMEOUT_SECONDS, synchronous: str | None = None
) -> sqlite3.Connection:
    """A connection to the file at `path` in WAL mode with foreign keys on, in autocommit
    mode (each backend issues its own BEGIN), usable from any thread. `synchronous`
    ("NORMAL") trades the last commits on a power cut for speed. Raises sqlite3's errors."""
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    try:
        _enter_wal(conn, time.monotonic() + timeout)
        if synchronous is not None:
            conn.execute(f"PRAGMA synchronous={synchronous}")
        conn.execute("PRAGMA foreign_keys=ON")
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _enter_wal(conn: sqlite3.Connection, deadline: float) -> None:
    """WAL mode, waiting while another process creates the file: SQLite answers "locked" at
    once, without its busy handler, when two connections race to switch a new file's mode."""
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(WAL_RETRY_SECONDS)


class ThreadConnections:
    """One connection per thread, opened on first use; connections of finished threads are
    closed when the next one opens, and `close_all` closes every one."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._by_thread: dict[int, tuple[threading.Thread, sqlite3.Connection]] = {}
        self._lock = threading.Lock()
        self._closed = False

    def get(self) -> sqlite3.Connection:
        me = threading.current_thread()
        found = self._by_thread.get(me.ident or 0)
        if found is not None and found[0] is me:
            return found[1]
        with self._lock:
            if self._closed:
                raise sqlite3.ProgrammingError("the database is closed")
            for ident, (thread, conn) in list(self._by_thread.items()):
                if not thread.is_alive():
                    conn.close()
                    del self._by_thread[ident]
            conn = self._connect()
            self._by_thread[me.ident or 0] = (me, conn)
            return conn

    def close_all(self) -> None:
        with self._lock:
            self._closed = True
            for _, conn in self._by_thread.values():
                conn.close()
            self._by_thread.clear()
