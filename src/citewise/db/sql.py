"""The one SQL connection protocol of the backends written in shared `?`-placeholder SQL
(users, conversation memory): an `sqlite3.Connection` is one as it is, a psycopg
connection once wrapped in `db.postgres.QmarkConnection`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class SqlCursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class SqlConn(Protocol):
    def execute(self, sql: str, params: Sequence[object] = ()) -> SqlCursor: ...
