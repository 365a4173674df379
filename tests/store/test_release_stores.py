"""Data directories written by earlier releases open and answer with this one. Each zip in
`tests/fixtures/releases/` is what a user of that release has on disk (`make_store.py` says
how it was made); keep every one, and add one per release that changes the schema."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.assistant import Assistant

RELEASES = sorted((Path(__file__).parents[1] / "fixtures" / "releases").glob("release-*.zip"))


def unpack(zipped: Path, into: Path) -> dict[str, object]:
    """The data directory in `zipped` extracted to `into`, and its `fixture.json`."""
    with zipfile.ZipFile(zipped) as zf:
        zf.extractall(into)
        for info in zf.infolist():  # zipfile keeps no modes: the secret stays the owner's
            if mode := info.external_attr >> 16 & 0o777:
                (into / info.filename).chmod(mode)
    manifest: dict[str, object] = json.loads((into / "fixture.json").read_text())
    (into / "fixture.json").unlink()
    return manifest


@pytest.fixture(params=RELEASES, ids=lambda p: p.stem)
def release(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, dict]]:
    data = tmp_path / "data"
    yield data, unpack(request.param, data)


def test_there_is_a_store_of_an_earlier_release() -> None:
    assert RELEASES, "tests/fixtures/releases/ lost its stores"


def test_a_store_of_an_earlier_release_opens_and_answers(release: tuple[Path, dict]) -> None:
    data, manifest = release
    with Assistant(data_dir=data, embedder=str(manifest["embedder"])) as a:
        for q in manifest["questions"]:  # type: ignore[attr-defined]
            answer = a.ask(q["question"])
            assert answer.answer_kind == "answer", answer.answer
            assert q["expect"] in answer.answer
            assert answer.citations[0].source == q["source"]


def test_its_conversations_users_and_keys_are_kept(release: tuple[Path, dict]) -> None:
    data, manifest = release
    with Assistant(data_dir=data, embedder=str(manifest["embedder"])) as a:
        turns = a.history(str(manifest["session"]))
        assert turns and turns[0].question == manifest["questions"][0]["question"]  # type: ignore[index]
        principal = a.auth.authenticate(str(manifest["api_key"]))
        assert principal.username == manifest["user"]
        assert [d.source for d in a.documents()] == ["guide/install.md", "notes.txt", "ops/logs.md"]


def test_its_folder_ingested_again_finds_every_document_in_place(
    release: tuple[Path, dict], tmp_path: Path
) -> None:
    """Its sources are kept: the first folder ingested after the upgrade becomes the
    collection's root, so the same files are recognised (unchanged, or replaced in place when a
    later release parses or chunks differently), never added beside themselves."""
    data, manifest = release
    corpus = tmp_path / "docs-moved-since"
    with Assistant(data_dir=data, embedder=str(manifest["embedder"])) as a:
        for doc in a.documents():  # the files as they were, from the kept originals
            (corpus / doc.source).parent.mkdir(parents=True, exist_ok=True)
            original = data / "originals" / doc.content_hash[:2] / doc.content_hash
            (corpus / doc.source).write_bytes(original.read_bytes())
        before = sorted(d.source for d in a.documents())
        report = a.ingest([corpus])
        assert {o.status for o in report.outcomes} <= {"unchanged", "replaced"}
        assert sorted(d.source for d in a.documents()) == before


def test_its_chunks_get_labels_by_backfill(release: tuple[Path, dict]) -> None:
    """Its chunks were stored before ingest labelled framing blocks: opening it labels them
    all (schema migration 5), so answers read labels as for a store made today."""
    data, manifest = release
    with Assistant(data_dir=data, embedder=str(manifest["embedder"])) as a:
        assert a.documents()
    db = sqlite3.connect(data / "citewise.db")
    try:
        unlabelled, total = db.execute("SELECT sum(label IS NULL), count(*) FROM chunks").fetchone()
    finally:
        db.close()
    assert total > 0 and unlabelled == 0
