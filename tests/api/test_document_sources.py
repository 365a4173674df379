"""A document from outside its collection's root has an absolute path as its source: the
document routes find and delete it by that path, as the web UI sends it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citewise.assistant import Assistant
from http_server import running
from support import write_corpus

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    from citewise.api import create_app
    from citewise.config import load_settings

    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing")
    assistant = Assistant(settings=settings)
    for team, day in (("team-a", "Mondays"), ("team-b", "Fridays")):
        assistant.ingest([write_corpus(tmp_path / team, {"notes.md": f"# N\n\nMeets {day}.\n"})])
    with running(create_app(settings, assistant=assistant)) as url:
        yield url, tmp_path / "team-b" / "notes.md"
    assistant.close()


def test_an_absolute_source_is_listed_read_and_deleted(served: tuple[str, Path]) -> None:
    url, outside = served
    with httpx.Client(base_url=url, timeout=60) as c:
        sources = [d["source"] for d in c.get("/documents").json()["documents"]]
        assert sorted(sources) == sorted(["notes.md", outside.as_posix()])
        path = "/documents/" + "/".join(outside.as_posix().split("/"))  # as documents.js does
        assert c.get(path).json()["source"] == outside.as_posix()
        assert c.delete(path).status_code == 204
        assert [d["source"] for d in c.get("/documents").json()["documents"]] == ["notes.md"]
