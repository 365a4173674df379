"""Stores are chosen by URL; an unknown scheme names the valid ones."""

from pathlib import Path

import pytest

from citewise.errors import ConfigError
from citewise.store.registry import open_store
from citewise.store.sqlite.store import SQLiteStore


def test_sqlite_urls_read_as_sqlalchemy_reads_them(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'a.db'}")  # four slashes: absolute
    assert isinstance(store, SQLiteStore) and store.path == tmp_path / "a.db"
    store.close()


def test_unknown_store_scheme_lists_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match="sqlite://, postgresql://"):
        open_store("mongodb://db/x")
    with pytest.raises(ConfigError, match="sqlite:///PATH"):
        open_store("sqlite:///")
