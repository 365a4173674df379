"""User-store backends by the store URL's scheme: users live in the database the documents
live in (`sqlite` in the data dir's file, `postgresql` in the store's database)."""

from __future__ import annotations

from citewise.auth.db import AuthDb
from citewise.config import Settings
from citewise.errors import CitewiseError, ConfigError
from citewise.registry import FactoryRegistry
from citewise.text.urls import scheme


def _sqlite(settings: Settings) -> AuthDb:
    from citewise.auth.backends.sqlite import SQLiteAuthDb

    return SQLiteAuthDb(settings.db_path)


def _postgres(settings: Settings) -> AuthDb:
    # psycopg is an optional dependency: imported only for a PostgreSQL store
    from citewise.auth.backends.postgres import PostgresAuthDb

    return PostgresAuthDb(settings.store_url, pool_size=settings.store_pool_size)


def _unknown(name: str, schemes: list[str]) -> CitewiseError:
    valid = ", ".join(f"{s}://" for s in schemes)
    return ConfigError(f"no user store for the store URL scheme '{name}': use one of {valid}")


AUTH_DBS = FactoryRegistry[[Settings], AuthDb](
    "user store",
    [("sqlite", _sqlite), ("postgresql", _postgres), ("postgres", _postgres)],
    unknown=_unknown,
)


def open_auth_db(settings: Settings) -> AuthDb:
    return AUTH_DBS.create(scheme(settings.store_url), settings)
