"""A client that goes away stops the generation: the flow behind the stream is closed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citewise.types import Event, Status, Token
from http_server import running

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1


def test_closing_the_stream_closes_the_answer_flow(tmp_path: Path) -> None:
    from api.slow_assistant import SlowAssistant
    from citewise.api import create_app
    from citewise.config import load_settings

    produced: list[int] = []
    closed = threading.Event()

    def flow(question: str) -> Iterator[Event]:
        try:
            yield Status("generate", "writing")
            for i in range(1000):
                produced.append(i)
                yield Token(f"word{i} ")
                time.sleep(0.01)
        finally:
            closed.set()

    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing")
    assistant = SlowAssistant(settings, flow)
    with running(create_app(settings, assistant=assistant)) as url:
        with (
            httpx.Client(base_url=url, timeout=30) as client,
            client.stream("POST", "/chat/stream", json={"message": "tell me"}) as r,
        ):
            for line in r.iter_lines():
                if line.startswith("event: token"):
                    break  # leaving the block closes the connection
        assert closed.wait(10), "the flow kept running after the client left"
        stopped_at = len(produced)
        time.sleep(0.3)
        assert len(produced) == stopped_at < 1000
    assistant.close()


def test_a_quiet_stream_sends_keepalive_comments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from api.slow_assistant import SlowAssistant
    from citewise.api import create_app, sse
    from citewise.config import load_settings

    monkeypatch.setattr(sse, "PING_SECONDS", 0.1)

    def flow(question: str) -> Iterator[Event]:
        time.sleep(0.8)  # a slow first token, as from a loaded LLM
        yield Token("late")

    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing")
    assistant = SlowAssistant(settings, flow)
    with running(create_app(settings, assistant=assistant)) as url:
        r = httpx.post(f"{url}/chat/stream", json={"message": "tell me"}, timeout=30)
    lines = r.text.splitlines()
    assert ": ping" in lines
    assert lines.index(": ping") < lines.index("event: token")
    assistant.close()
