"""Every user-store backend runs the user-store contract kit
(`citewise.testing.auth_contract`): the data dir's SQLite file and a real PostgreSQL (a
fresh database on the session's server, `tests/pg_server.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.auth.backends.sqlite import SQLiteAuthDb
from citewise.auth.db import AuthDb
from citewise.testing.auth_contract import AuthStoreContractTests


class TestSQLiteAuthStore(AuthStoreContractTests):
    @pytest.fixture
    def auth_db(self, tmp_path: Path) -> AuthDb:
        return SQLiteAuthDb(tmp_path / "citewise.db")


@pytest.mark.integration
class TestPostgresAuthStore(AuthStoreContractTests):
    @pytest.fixture
    def auth_db(self, postgres_url: str) -> AuthDb:
        from citewise.auth.backends.postgres import PostgresAuthDb  # psycopg: the scale extra

        return PostgresAuthDb(postgres_url)
