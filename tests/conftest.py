"""Shared fixtures: a small real corpus made at run time, and an Assistant on the fast
deterministic hashing embedder (the bundled model is exercised by the `slow` tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.linked_corpus import linked_assistant  # noqa: F401  (the graph and retrieve tests')
from pg_server import postgres_server, postgres_url  # noqa: F401  (fixtures for integration tests)
from support import write_corpus

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "docs")


@pytest.fixture
def assistant(tmp_path: Path) -> Iterator[object]:
    from citewise.assistant import Assistant

    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        yield a
