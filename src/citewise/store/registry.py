"""Stores by URL: `sqlite:///path/to/citewise.db` or `postgresql://user@host/db`.

One call for the composition root: `open_store(settings.store_url)`. The error for an
unknown scheme lists the valid ones.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

from citewise.errors import ConfigError
from citewise.store.base import Store

StoreFactory = Callable[[str, int], Store]


def sqlite_path(url: str) -> Path:
    """As SQLAlchemy reads them: `sqlite:///rel.db` → rel.db, `sqlite:////abs.db` → /abs.db."""
    parts = urlsplit(url)
    if parts.scheme != "sqlite" or parts.netloc or len(parts.path) < 2:
        raise ConfigError(f"not an SQLite store URL: {url!r} (use sqlite:///PATH)")
    return Path(unquote(parts.path)[1:])


def _sqlite(url: str, pool_size: int) -> Store:
    from citewise.store.sqlite.store import SQLiteStore

    return SQLiteStore(sqlite_path(url))


def _postgres(url: str, pool_size: int) -> Store:
    from citewise.store.postgres.store import PostgresStore

    return PostgresStore(url, pool_size=pool_size)


STORES: dict[str, StoreFactory] = {
    "sqlite": _sqlite,
    "postgresql": _postgres,
    "postgres": _postgres,
}


def open_store(url: str, *, pool_size: int = 4) -> Store:
    scheme = urlsplit(url).scheme.split("+", 1)[0]
    factory = STORES.get(scheme)
    if factory is None:
        valid = ", ".join(f"{s}://" for s in STORES)
        raise ConfigError(f"unknown store '{url}': use one of {valid}")
    return factory(url, pool_size)
