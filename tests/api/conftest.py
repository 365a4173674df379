"""One server per test module over a small corpus (hashing embedder, extractive answers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from http_server import running
from support import write_corpus


def make_settings(root: Path, **overrides: object) -> object:
    from citewise.config import load_settings

    return load_settings(data_dir=root / "data", embedder="hashing", **overrides)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from citewise.api import create_app
    from citewise.assistant import Assistant

    root = tmp_path_factory.mktemp("api")
    settings = make_settings(root, max_upload_bytes=64 * 1024)
    assistant = Assistant(settings=settings)  # type: ignore[arg-type]
    assistant.ingest([write_corpus(root / "docs")], collection="default")
    _make_key(settings, root / "api-key")
    with running(create_app(settings, assistant=assistant)) as url:  # type: ignore[arg-type]
        yield url
    assistant.close()


def _make_key(settings: object, out: Path) -> None:
    """A user with an API key (read, write), as `citewise users` would make them."""
    from citewise.auth.service import AuthService
    from citewise.services import make_user_store

    auth = AuthService(settings, make_user_store(settings))  # type: ignore[arg-type]
    try:
        user = auth.create_user("tester", "a long test password")
        made, _ = auth.store.create_key(user.user_id, "tests", frozenset({"read", "write"}), None)
        out.write_text(made.key)
    finally:
        auth.close()


@pytest.fixture(scope="module")
def api_key(base_url: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    keys = sorted(tmp_path_factory.getbasetemp().glob("api*/api-key"))
    return keys[-1].read_text()


@pytest.fixture
def client(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=60) as c:
        yield c
