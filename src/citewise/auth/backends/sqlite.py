"""Users in the data dir's SQLite file (WAL): each thread gets its own connection."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citewise.auth.backends.sqlite_schema import apply_schema
from citewise.auth.db import AuthConn
from citewise.errors import InputError, StoreError


class SQLiteAuthDb:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        apply_schema(self._thread_conn())

    def _thread_conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                conn = sqlite3.connect(
                    self.path, timeout=30.0, isolation_level=None, check_same_thread=False
                )
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA foreign_keys=ON")
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"cannot open the user store at {self.path}: {exc}") from exc
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def connection(self) -> Iterator[AuthConn]:
        yield self._thread_conn()

    @contextmanager
    def transaction(self) -> Iterator[AuthConn]:
        conn = self._thread_conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except sqlite3.IntegrityError as exc:
            conn.execute("ROLLBACK")
            raise InputError(f"the change clashes with stored users or collections: {exc}") from exc
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")

    def shared_secret(self) -> str | None:
        return None

    def close(self) -> None:
        with self._all_lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
        self._local = threading.local()
