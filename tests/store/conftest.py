from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.store.base import Store
from citewise.store.registry import open_store


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each backend's URL on a fresh, empty database (PostgreSQL: the session's server)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    """Every Store backend runs the same contract tests."""
    s = open_store(store_url)
    yield s
    s.close()
