"""Data dirs for the MCP tests: the shared corpus in `default` and two users, each with a
made-up fact in their own collection and an API key (hashing embedder, extractive answers)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from citewise.assistant.inside import inside
from support import write_corpus

FACTS = {
    "alice": "The Korvex pump at Dunmere is calibrated to 48213 kilopascals.",
    "bob": "The Zolvane valve at Pimtor is calibrated to 77120 kilopascals.",
}


@dataclass(frozen=True)
class Tenant:
    name: str
    key: str
    collection: str
    source: str
    fact: str
    chunk_id: int


@dataclass(frozen=True)
class DataDir:
    path: Path
    tenants: dict[str, Tenant]


def make_data_dir(root: Path) -> DataDir:
    """What `citewise ingest` and `citewise users` would make."""
    from citewise.assistant import Assistant
    from citewise.config import load_settings

    settings = load_settings(data_dir=root / "data", embedder="hashing")
    tenants: dict[str, Tenant] = {}
    with Assistant(settings=settings) as assistant:
        assistant.ingest([write_corpus(root / "docs")], collection="default")
        for name, fact in FACTS.items():
            user = assistant.auth.create_user(name, "a long test password")
            made, _ = assistant.users.create_key(user.user_id, "mcp", frozenset({"read"}), None)
            folder = write_corpus(root / name, {f"{name}-pumps.md": f"# Pumps\n\n{fact}\n"})
            assistant.ingest([folder], collection=user.home_collection)
            doc = assistant.document(f"{name}-pumps.md", collection=user.home_collection)
            chunk_id = inside(assistant).store.document_chunks(doc.doc_id)[0].chunk_id
            tenants[name] = Tenant(name, made.key, user.home_collection, doc.source, fact, chunk_id)
    return DataDir(root / "data", tenants)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> DataDir:
    return make_data_dir(tmp_path_factory.mktemp("mcp"))
