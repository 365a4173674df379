"""The memory (Redis, PostgreSQL, SQLite: blocking calls) is asked whether a conversation
exists, and told to forget a one-off /v1 conversation, on a worker thread, never on the
server's event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from citewise.chat.memory.sqlite import SQLiteMemory


def on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class LoopNotingMemory(SQLiteMemory):
    """Notes, for each `exists` call, whether it ran on a thread running an event loop."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.on_loop: list[bool] = []

    def exists(self, session_id: str) -> bool:
        self.on_loop.append(on_event_loop())
        return super().exists(session_id)

    def delete(self, session_id: str) -> None:
        self.on_loop.append(on_event_loop())
        super().delete(session_id)


@pytest.fixture
def app_and_memory(tmp_path: Path) -> Iterator[tuple[TestClient, LoopNotingMemory]]:
    from citewise.api import create_app
    from citewise.assistant import Assistant
    from citewise.config import load_settings

    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing")
    memory = LoopNotingMemory(tmp_path / "memory.db")
    assistant = Assistant(settings=settings, memory=memory)
    doc = tmp_path / "leave.txt"
    doc.write_text("Every employee gets 28 days of paid annual leave each year.\n")
    assistant.ingest([doc])
    with TestClient(create_app(settings, assistant=assistant)) as client:
        yield client, memory
    assistant.close()


@pytest.mark.parametrize("path", ["/chat/", "/chat/stream"])
def test_an_unknown_session_is_looked_up_off_the_event_loop(
    app_and_memory: tuple[TestClient, LoopNotingMemory], path: str
) -> None:
    client, memory = app_and_memory
    reply = client.post(path, json={"message": "hello there", "session_id": "never-made"})
    assert reply.status_code == 404
    assert memory.on_loop == [False]


@pytest.mark.parametrize("stream", [False, True])
def test_a_v1_completion_forgets_its_conversation_off_the_event_loop(
    app_and_memory: tuple[TestClient, LoopNotingMemory], stream: bool
) -> None:
    client, memory = app_and_memory
    body = {
        "model": "citewise",
        "stream": stream,
        "messages": [{"role": "user", "content": "How many days of annual leave do I get?"}],
    }
    reply = client.post("/v1/chat/completions", json=body)
    assert reply.status_code == 200, reply.text
    assert memory.on_loop and not any(memory.on_loop)
