"""`POST /admin/backup` while the server answers questions: the file restores into a data
directory that answers; only an admin may take one."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citewise.assistant import Assistant
from citewise.db.backup import restore
from http_server import running
from support import write_corpus

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1

QUESTION = "How many rotated log files are kept?"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A server over a small corpus, and the API key of a user who is not an admin."""
    from citewise.api import create_app
    from citewise.config import load_settings

    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing")
    assistant = Assistant(settings=settings)
    assistant.ingest([write_corpus(tmp_path / "docs")])
    user = assistant.auth.create_user("reader", "a long test password")
    made, _ = assistant.users.create_key(user.user_id, "k", frozenset({"read"}), None)
    with running(create_app(settings, assistant=assistant)) as url:
        yield url, made.key
    assistant.close()


def test_a_backup_taken_while_questions_are_answered_restores_and_answers(
    served: tuple[str, str], tmp_path: Path
) -> None:
    url, _ = served
    stop, answered, failures = threading.Event(), [], []

    def ask() -> None:
        with httpx.Client(base_url=url, timeout=60) as c:
            while not stop.is_set():
                r = c.post("/chat/", json={"message": QUESTION})
                (answered if r.status_code == 200 else failures).append(r.status_code)

    askers = [threading.Thread(target=ask) for _ in range(2)]
    for t in askers:
        t.start()
    try:
        with httpx.Client(base_url=url, timeout=120) as c:
            r = c.post("/admin/backup")
    finally:
        stop.set()
        for t in askers:
            t.join()
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/zip"
    assert answered and not failures
    (tmp_path / "got.zip").write_bytes(r.content)
    restore(tmp_path / "got.zip", tmp_path / "restored")
    with Assistant(data_dir=tmp_path / "restored", embedder="hashing") as b:
        answer = b.ask(QUESTION)
    assert "seven" in answer.answer and answer.citations[0].source == "guides/logging.md"


def test_only_an_admin_may_take_a_backup(served: tuple[str, str]) -> None:
    url, reader_key = served
    r = httpx.post(f"{url}/admin/backup", headers={"Authorization": f"Bearer {reader_key}"})
    assert r.status_code == 403
