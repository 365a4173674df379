"""Two API processes' worth of services on one PostgreSQL, each with its own data dir (as on
two machines): they share users (a token one issued is accepted by the other: the signing
secret lives in the database) and conversations (a session goes on at the other)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from support import write_corpus

pytestmark = pytest.mark.integration


@pytest.fixture
def two_apps(tmp_path: Path, postgres_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    from citewise.api import create_app
    from citewise.config import load_settings

    with ExitStack() as stack:
        clients = []
        for name in ("a", "b"):
            settings = load_settings(
                data_dir=tmp_path / name, store=postgres_url, embedder="hashing",
                auth_required=True,
            )  # fmt: skip
            clients.append(stack.enter_context(TestClient(create_app(settings))))
        yield clients[0], clients[1]


def _login(client: TestClient, username: str, password: str) -> dict[str, str]:
    reply = client.post("/auth/token", data={"username": username, "password": password})
    assert reply.status_code == 200, reply.text
    return {"Authorization": f"Bearer {reply.json()['access_token']}"}


def test_two_services_on_one_postgres_share_users_and_conversations(
    two_apps: tuple[TestClient, TestClient], tmp_path: Path
) -> None:
    a, b = two_apps
    auth_a = a.app.state.auth  # type: ignore[attr-defined]
    auth_a.create_user("bob", "bob's long password", is_admin=True)
    a.app.state.assistant.ingest(  # type: ignore[attr-defined]
        [write_corpus(tmp_path / "docs")], collection="default"
    )

    from_b = _login(b, "bob", "bob's long password")  # a user made by A logs in at B
    assert a.get("/auth/me", headers=from_b).json()["username"] == "bob"  # B's token at A
    from_a = _login(a, "bob", "bob's long password")
    assert b.get("/auth/me", headers=from_a).json()["username"] == "bob"
    assert not (tmp_path / "a" / "secret_key").exists()  # the secret is the database's

    first = a.post("/chat/", json={"message": "How do I install it?", "session_id": "s1",
                                     "create_session": True},
                   headers=from_a)  # fmt: skip
    assert first.status_code == 200, first.text
    seen_at_b = b.get("/chat/history/s1", headers=from_b).json()["turns"]
    assert [t["question"] for t in seen_at_b] == ["How do I install it?"]
    assert seen_at_b[0]["answer"] == first.json()["answer"]
    more = b.post("/chat/", json={"message": "And on Windows?", "session_id": "s1"},
                  headers=from_b)  # fmt: skip
    assert more.status_code == 200, more.text
    turns = a.get("/chat/history/s1", headers=from_a).json()["turns"]
    assert [t["question"] for t in turns] == ["How do I install it?", "And on Windows?"]
    assert b.delete("/chat/history/s1", headers=from_b).status_code == 204
    assert a.get("/chat/history/s1", headers=from_a).status_code == 404
