"""Stores by URL: `sqlite:///path/to/citewise.db` or `postgresql://user@host/db`.

One call for the composition root: `open_store(settings.store_url)`. The error for an
unknown scheme lists the valid ones.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol
from urllib.parse import unquote, urlsplit

from citewise.errors import CitewiseError, ConfigError
from citewise.registry import FactoryRegistry
from citewise.store.base import Store
from citewise.text.urls import scheme

StoreFactory = Callable[[str, int], Store]


class StoreOpener(Protocol):
    def __call__(self, *, pool_size: int | None = None) -> Store:
        """A store of its own (for a thread that may not share one)."""
        ...


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


def _unknown(url: str, schemes: list[str]) -> CitewiseError:
    valid = ", ".join(f"{s}://" for s in schemes)
    return ConfigError(f"unknown store '{url}': use one of {valid}")


# by the URL's scheme
STORES = FactoryRegistry[[str, int], Store](
    "store", [("sqlite", _sqlite), ("postgresql", _postgres), ("postgres", _postgres)]
)
STORES.accept_plugins("citewise.stores")  # factory(url, pool_size), by the URL's scheme


def open_store(url: str, *, pool_size: int = 4) -> Store:
    if scheme(url) not in STORES:
        raise _unknown(url, STORES.names())
    return STORES.create(scheme(url), url, pool_size)
