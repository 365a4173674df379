"""The composition root: the store chosen by URL, and the facade over the chat flow."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.config import load_settings
from citewise.errors import ConfigError, NotFoundError
from citewise.services import Services, memory_url, open_store, register_store, store_url
from citewise.store.registry import sqlite_path
from support import write_corpus


def test_sqlite_urls_read_as_sqlalchemy_reads_them() -> None:
    assert sqlite_path("sqlite:///rel/x.db") == Path("rel/x.db")
    assert sqlite_path("sqlite:////abs/x.db") == Path("/abs/x.db")
    with pytest.raises(ConfigError, match="sqlite:///PATH"):
        sqlite_path("sqlite://host/x.db")


def test_the_default_store_is_the_data_dirs_file(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    assert store_url(settings) == f"sqlite:///{tmp_path / 'citewise.db'}"
    store = open_store(settings)
    assert (tmp_path / "citewise.db").is_file()
    store.close()


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
        open_store(settings)


def test_a_registered_backend_is_chosen_by_its_scheme(tmp_path: Path) -> None:
    opened: list[str] = []

    def factory(url: str, pool_size: int) -> object:
        opened.append(url)
        return open_store(load_settings(data_dir=tmp_path))

    register_store("memtest", factory)  # type: ignore[arg-type]
    open_store(load_settings(data_dir=tmp_path, store="memtest://db")).close()
    assert opened == ["memtest://db"]


def test_questions_go_to_the_first_readable_collection_with_documents(tmp_path: Path) -> None:
    services = Services(load_settings(data_dir=tmp_path / "data", embedder="hashing"))
    services.ingest([write_corpus(tmp_path / "docs")], collection="global")
    assert services.answer_collection(["user-empty", "global"]) == "global"
    answer = services.ask(
        "What is the default request timeout?", session_id="s1",
        collections=["user-empty", "global"],
    )  # fmt: skip
    assert "30 seconds" in answer.answer
    assert [t.question for t in services.history("s1")] == ["What is the default request timeout?"]
    services.delete_session("s1")
    with pytest.raises(NotFoundError):
        services.history("s1")
    services.close()


def test_a_question_searches_the_own_collection_then_the_global_one(tmp_path: Path) -> None:
    services = Services(load_settings(data_dir=tmp_path / "data", embedder="hashing"))
    services.ingest([write_corpus(tmp_path / "docs")], collection="global")
    own = write_corpus(
        tmp_path / "own", {"boats.md": "# Boats\n\nThe request boat leaves at noon.\n"}
    )
    services.ingest([own], collection="user-a")
    answer = services.ask(
        "What is the default request timeout?", session_id=None,
        collections=["user-a", "global"],
    )  # fmt: skip
    assert "30 seconds" in answer.answer  # the own collection has documents, not this answer
    hits = services.search("request", k=10, collections=["user-a", "global"]).hits
    assert hits[0].source == "boats.md"  # own first
    assert "reference/limits.txt" in [h.source for h in hits]
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    services.close()
