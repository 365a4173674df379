"""Conversation memory in a real redis-server that dies mid-conversation: the user gets a
clear error naming the URL (CLI: exit code 3, no traceback), nothing acknowledged is lost,
no turn is half-stored, and the same long-lived process recovers when Redis is back."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chat.memory.conftest import RedisServer
from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.cli import app
from citewise.errors import MemoryBackendError
from citewise.types import ErrorEvent
from support import write_corpus

pytestmark = pytest.mark.integration


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis", persist=True).start()
    try:
        yield server
    finally:
        server.stop()


def test_redis_dying_mid_conversation_gives_a_clear_error_and_recovers(
    tmp_path: Path, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITEWISE_MEMORY", redis_server.url)
    docs = write_corpus(tmp_path / "docs")
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as assistant:
        assistant.ingest([docs])
        chat = assistant
        first = chat.ask("How often are log files rotated?", session_id="s1")
        assert first.session_id == "s1" and first.answer

        redis_server.kill()
        started = time.monotonic()
        with pytest.raises(MemoryBackendError, match=f"{redis_server.url}.*unreachable"):
            chat.ask("And how many rotated files are kept?", session_id="s1")
        events = []
        with pytest.raises(MemoryBackendError):
            for event in chat.stream("And how many rotated files are kept?", session_id="s1"):
                events.append(event)
        assert isinstance(events[-1], ErrorEvent) and redis_server.url in events[-1].message
        assert time.monotonic() - started < 15

        redis_server.start()  # same port and append-only file, same process and objects
        second = chat.ask("And how many rotated files are kept?", session_id="s1")
        assert second.session_id == "s1" and second.answer
        stored = inside(chat).memory.turns("s1")
        assert [t.question for t in stored] == [
            "How often are log files rotated?",
            "And how many rotated files are kept?",
        ]
        chat.close()


def test_cli_ask_with_redis_down_exits_3_with_the_url(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    env = {
        "CITEWISE_DATA_DIR": str(tmp_path / "data"),
        "CITEWISE_EMBEDDER": "hashing",
        "CITEWISE_MEMORY": redis_server.url,
    }
    runner = CliRunner()
    docs = write_corpus(tmp_path / "docs")
    assert runner.invoke(app, ["ingest", str(docs)], env=env).exit_code == 0
    ok = runner.invoke(
        app, ["ask", "How long do tokens last?", "--session", "s2", "--json"], env=env
    )
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["session_id"] == "s2"
    redis_server.kill()
    down = runner.invoke(app, ["ask", "And uploads?", "--session", "s2"], env=env)
    assert down.exit_code == 3
    assert redis_server.url in down.output and "Traceback" not in down.output
