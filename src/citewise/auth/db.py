"""Where users, keys, groups, collections and grants live: the `AuthDb` protocol. Backends
are in `auth.backends` (one module each, chosen by the store's URL there).

The store (`auth.store`, `auth.sharing`) holds the logic and the SQL; every statement is
written once, with `?` placeholders, in SQL both databases speak. A backend gives
connections and transactions: reads on the thread of an open transaction use its
connection, so a check and the write that follows it see the same state.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from citewise.db.sql import SqlConn


class AuthDb(Protocol):
    """`url` names the database in messages (no password)."""

    url: str

    def connection(self) -> AbstractContextManager[SqlConn]:
        """A connection for reads (the open transaction's, on its thread)."""
        ...

    def transaction(self) -> AbstractContextManager[SqlConn]:
        """One write transaction; a unique-key clash raises InputError."""
        ...

    def shared_secret(self) -> str | None:
        """The token-signing secret every process on this database shares, made once; None
        where the secret stays with the process (the data dir's file)."""
        ...

    def close(self) -> None: ...


def one(db: AuthDb, sql: str, params: Sequence[object] = ()) -> Any:
    """The first row of a read, or None."""
    with db.connection() as conn:
        return conn.execute(sql, params).fetchone()


def all_rows(db: AuthDb, sql: str, params: Sequence[object] = ()) -> list[Any]:
    """Every row of a read."""
    with db.connection() as conn:
        return conn.execute(sql, params).fetchall()
