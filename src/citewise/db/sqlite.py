"""Connections of the SQLite store under a threaded server: one read connection per thread,
writes serialized by one lock per database file, and one vector cache per file shared by
every thread and every store object of the process."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from citewise.store.vector_index import Partition


@dataclass
class SharedFileState:
    """What all store objects of one database file share within the process."""

    write_lock: threading.Lock = field(default_factory=threading.Lock)
    cache_lock: threading.Lock = field(default_factory=threading.Lock)
    partitions: dict[int, Partition] = field(default_factory=dict)


_SHARED: dict[tuple[str, int, int], SharedFileState] = {}
_SHARED_LOCK = threading.Lock()


def shared_state(path: Path) -> SharedFileState:
    """The state of the file at `path`; a file replaced at the same path (another inode)
    gets a fresh cache."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_dev, stat.st_ino)
    with _SHARED_LOCK:
        state = _SHARED.get(key)
        if state is None:
            state = _SHARED[key] = SharedFileState()
        return state


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
                raise sqlite3.ProgrammingError("the store is closed")
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
