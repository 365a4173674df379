"""The service and CLI tests run on both user-store backends: SQLite (the data dir's file) and
a real PostgreSQL (a fresh database on the session's server, `tests/pg_server.py`), chosen
by the settings as `citewise serve` chooses them. The store itself runs the contract kit
(`test_store.py`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from citewise.config import Settings

SettingsMaker = Callable[..., Settings]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def auth_backend(request: pytest.FixtureRequest) -> str | None:
    """None for SQLite, else the PostgreSQL URL (the store URL users live with)."""
    return None if request.param == "sqlite" else str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def auth_settings(
    auth_backend: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> SettingsMaker:
    """Settings on this backend (`CITEWISE_STORE` set too, for the CLI)."""
    if auth_backend is not None:
        monkeypatch.setenv("CITEWISE_STORE", auth_backend)

    def make(**settings: object) -> Settings:
        return Settings(data_dir=tmp_path, store=auth_backend, **settings)  # type: ignore[arg-type]

    return make
