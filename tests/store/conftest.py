from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.store.sqlite import SQLiteStore


@pytest.fixture(params=["sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SQLiteStore]:
    """Every Store backend runs the same contract tests (PostgreSQL joins this list)."""
    if request.param == "sqlite":
        s = SQLiteStore(tmp_path / "store.db")
    else:  # pragma: no cover - future backends
        raise AssertionError(request.param)
    yield s
    s.close()
