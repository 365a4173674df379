"""Where users, keys, groups, collections and grants live: the `AuthDb` protocol, one module
per backend (`sqlite_db`, `postgres_db`), and a registry chosen by the store's URL.

The store (`auth.store`, `auth.store_sharing`) holds the logic and the SQL; every statement
is written once, with `?` placeholders, in SQL both databases speak. A backend gives
connections and transactions: reads on the thread of an open transaction use its
connection, so a check and the write that follows it see the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from citewise.errors import ConfigError

if TYPE_CHECKING:
    from citewise.config import Settings


class AuthCursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class AuthConn(Protocol):
    def execute(self, sql: str, params: Sequence[object] = ()) -> AuthCursor: ...


class AuthDb(Protocol):
    """`url` names the database in messages (no password)."""

    url: str

    def connection(self) -> AbstractContextManager[AuthConn]:
        """A connection for reads (the open transaction's, on its thread)."""
        ...

    def transaction(self) -> AbstractContextManager[AuthConn]:
        """One write transaction; a unique-key clash raises InputError."""
        ...

    def shared_secret(self) -> str | None:
        """The token-signing secret every process on this database shares, made once; None
        where the secret stays with the process (the data dir's file)."""
        ...

    def close(self) -> None: ...


AuthDbFactory = Callable[["Settings"], AuthDb]


def _sqlite(settings: Settings) -> AuthDb:
    from citewise.auth.backends.sqlite import SQLiteAuthDb

    return SQLiteAuthDb(settings.db_path)


def _postgres(settings: Settings) -> AuthDb:
    from citewise.auth.backends.postgres import PostgresAuthDb

    return PostgresAuthDb(settings.store_url, pool_size=settings.store_pool_size)


# by the store URL's scheme: users live in the database the documents live in
AUTH_DBS: dict[str, AuthDbFactory] = {
    "sqlite": _sqlite,
    "postgresql": _postgres,
    "postgres": _postgres,
}


def open_auth_db(settings: Settings) -> AuthDb:
    scheme = settings.store_url.split(":", 1)[0].split("+", 1)[0].lower()
    factory = AUTH_DBS.get(scheme)
    if factory is None:
        valid = ", ".join(f"{s}://" for s in AUTH_DBS)
        raise ConfigError(f"no user store for the store URL scheme '{scheme}': use one of {valid}")
    return factory(settings)
