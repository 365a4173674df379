"""Fixtures for the embedder tests: the scripted embeddings server and the bundled MiniLM."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from embed.fake_server import FakeServer


@pytest.fixture
def embed_server() -> Iterator[FakeServer]:
    server = FakeServer()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def minilm_onnx() -> Path:
    """The default int8 graph, from the model cache (the install script exports it)."""
    from citewise.embed.minilm.export import ensure_onnx_model

    return ensure_onnx_model()
