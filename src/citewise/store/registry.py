"""Stores by URL: `sqlite:///path/to/citewise.db` or `postgresql://user@host/db`.

One call for the composition root: `open_store(settings.store_url)`. The error for an
unknown scheme lists the valid ones.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from citewise.errors import ConfigError
from citewise.store.base import Store


def _sqlite(url: str, pool_size: int) -> Store:
    from citewise.store.sqlite import SQLiteStore

    path = url.split("://", 1)[1]
    if not path.strip("/"):
        raise ConfigError(f"'{url}' names no file: use sqlite:///path/to/citewise.db")
    # sqlite:///relative/x.db and sqlite:////abs/x.db as SQLAlchemy reads them
    return SQLiteStore(Path(path[1:] if path.startswith("/") else path))


def _postgres(url: str, pool_size: int) -> Store:
    from citewise.store.postgres import PostgresStore

    return PostgresStore(url, pool_size=pool_size)


STORES: dict[str, Callable[[str, int], Store]] = {
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
