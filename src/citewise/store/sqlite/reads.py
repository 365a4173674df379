"""What the SQLite store reads its own way (`SQLiteReads`, the `store.sql.ReadConn` the
shared reads run on): id lists as `IN (?, …)`, tags as JSON, titles by LIKE (which ignores
ASCII case), line boxes in a chunk column."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager


class SQLiteReads:
    """One SQLite connection, as the shared SQL wants it."""

    title_like = "LIKE ? ESCAPE '\\'"
    boxes_column = "ch.boxes"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
        return self._conn.execute(sql, params)

    def any_of(self, column: str, ids: Sequence[int]) -> tuple[str, tuple[object, ...]]:
        return f"{column} IN ({','.join('?' * len(ids))})", tuple(ids)

    def tags_of(self, value: object) -> tuple[str, ...]:
        return tuple(json.loads(str(value) or "[]"))


@contextmanager
def one_state(conn: sqlite3.Connection) -> Iterator[None]:
    """Reads inside see one state of the file (a WAL read transaction: the caller's, else
    one of their own), so a write committed meanwhile cannot change what they read."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")
