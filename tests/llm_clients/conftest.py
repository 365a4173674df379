"""Fixtures for the LLM client tests: the scripted HTTP server and per-format adapters."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from llm_clients.scripted_server import ScriptedServer
from llm_clients.wire import WIRES, OllamaWire, OpenAIWire, Wire


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    """A scripted HTTP server on 127.0.0.1; the test fails if a request found nothing
    scripted (the client sent more requests than the test expected)."""
    scripted = ScriptedServer()
    try:
        yield scripted
    finally:
        scripted.close()
    unexpected = [f"{r.method} {r.path}" for r in scripted.unexpected]
    assert not unexpected, f"requests with nothing scripted: {unexpected}"


@pytest.fixture(params=sorted(WIRES))
def wire(request: pytest.FixtureRequest, server: ScriptedServer) -> Iterator[Wire]:
    """Each contract test runs once per wire format (Ollama, OpenAI-compatible)."""
    adapter = WIRES[request.param](server)
    yield adapter
    adapter.close()


@pytest.fixture
def ollama(server: ScriptedServer) -> Iterator[OllamaWire]:
    adapter = OllamaWire(server)
    yield adapter
    adapter.close()


@pytest.fixture
def openai(server: ScriptedServer) -> Iterator[OpenAIWire]:
    adapter = OpenAIWire(server)
    yield adapter
    adapter.close()
