"""The composition root: the store chosen by URL, memory beside the store, parts built on
first use."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.config import load_settings
from citewise.errors import ConfigError
from citewise.retrieve.passages import StorePassages
from citewise.services import build, memory_url, register_store
from citewise.store.registry import sqlite_path


def test_sqlite_urls_read_as_sqlalchemy_reads_them() -> None:
    assert sqlite_path("sqlite:///rel/x.db") == Path("rel/x.db")
    assert sqlite_path("sqlite:////abs/x.db") == Path("/abs/x.db")
    with pytest.raises(ConfigError, match="sqlite:///PATH"):
        sqlite_path("sqlite://host/x.db")


def test_the_default_store_is_the_data_dirs_file(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    assert settings.store_url == f"sqlite:///{tmp_path / 'citewise.db'}"
    parts = build(settings)
    parts.store.get()
    assert (tmp_path / "citewise.db").is_file()
    parts.close()


def test_memory_follows_a_postgresql_store_unless_a_memory_server_is_named(
    tmp_path: Path,
) -> None:
    pg = "postgresql://citewise@db/citewise"
    assert memory_url(load_settings(data_dir=tmp_path)) == "sqlite"
    assert memory_url(load_settings(data_dir=tmp_path, store=pg)) == pg
    redis = "redis://cache:6379/0"
    assert memory_url(load_settings(data_dir=tmp_path, store=pg, memory=redis)) == redis


def test_users_live_with_the_store_chosen_by_its_scheme(tmp_path: Path) -> None:
    from citewise.auth.backends import open_auth_db
    from citewise.auth.backends.sqlite import SQLiteAuthDb

    db = open_auth_db(load_settings(data_dir=tmp_path))
    assert isinstance(db, SQLiteAuthDb) and db.path == tmp_path / "citewise.db"
    db.close()
    with pytest.raises(ConfigError, match="sqlite://, postgresql://"):
        open_auth_db(load_settings(data_dir=tmp_path, store="mysql://h/db"))


def test_an_unknown_store_scheme_names_the_known_ones(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, store="mongodb://x")
    with pytest.raises(ConfigError, match="sqlite://"):
        build(settings).store.get()


def test_a_registered_backend_is_chosen_by_its_scheme(tmp_path: Path) -> None:
    opened: list[str] = []

    def factory(url: str, pool_size: int) -> object:
        opened.append(url)
        return build(load_settings(data_dir=tmp_path)).store.get()

    register_store("memtest", factory)  # type: ignore[arg-type]
    parts = build(load_settings(data_dir=tmp_path, store="memtest://db"))
    parts.store.get()
    parts.close()
    assert opened == ["memtest://db"]


def test_parts_are_built_on_first_use_only(tmp_path: Path) -> None:
    parts = build(load_settings(data_dir=tmp_path / "data", embedder="hashing"))
    assert not any(p.built for p in (parts.store, parts.embedder, parts.memory, parts.llm))
    parts.retriever.get()
    assert parts.store.built and not parts.memory.built and not parts.conversation.built
    assert not (tmp_path / "data" / "memory.db").exists()
    parts.close()


def test_a_closed_part_is_opened_anew_on_its_next_use(tmp_path: Path) -> None:
    parts = build(load_settings(data_dir=tmp_path / "data", embedder="hashing"))
    first = parts.store.get()
    conversation = parts.conversation.get()
    parts.close()
    parts.close()  # closing twice is harmless
    assert parts.store.get() is not first
    assert parts.conversation.get() is not conversation
    reader = parts.conversation.get().answerer.reader  # the conversation's one port
    assert isinstance(reader, StorePassages) and reader._store is parts.store.get()
    parts.close()
