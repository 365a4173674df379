"""Users in the data dir's SQLite file (WAL): each thread gets its own connection."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citewise.auth.backends.sqlite_schema import apply_schema
from citewise.db.sql import SqlConn
from citewise.db.sqlite import ThreadConnections, connect
from citewise.errors import InputError, StoreError


class SQLiteAuthDb:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"
        self._connections = ThreadConnections(self._connect)
        apply_schema(self._connections.get())

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return connect(self.path)
        except (OSError, sqlite3.DatabaseError) as exc:
            raise StoreError(f"cannot open the user store at {self.path}: {exc}") from exc

    @contextmanager
    def connection(self) -> Iterator[SqlConn]:
        yield self._connections.get()

    @contextmanager
    def transaction(self) -> Iterator[SqlConn]:
        conn = self._connections.get()
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
        self._connections.close_all()
