"""`citewise reindex` after an upgrade: stale documents re-parsed from their kept originals,
chunks without vectors embedded, the store's note cleared; resumable when interrupted."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.cli import app
from citewise.ingest.chunking import ChunkingOptions
from citewise.ingest.pipeline import pipeline_key
from support import write_corpus

CURRENT = pipeline_key(ChunkingOptions())


def _upgrade(db: Path, sql: str) -> None:
    """What a migration of a later release might leave: stale rows and a note."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.executescript(sql + "INSERT OR REPLACE INTO meta VALUES ('reindex', 'new parsers');")
    conn.close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        a.ingest([write_corpus(tmp_path / "docs")])
    shutil.rmtree(tmp_path / "docs")  # reindex reads the kept originals, not the folder
    return tmp_path / "data"


def test_stale_documents_are_parsed_again_from_their_kept_originals(data: Path) -> None:
    _upgrade(data / "citewise.db", "UPDATE documents SET pipeline = '';")
    with Assistant(data_dir=data, embedder="hashing") as a:
        assert inside(a).store.reindex_reason() == "new parsers"
        report = a.reindex()
        assert {o.status for o in report.outcomes} == {"replaced"} and len(report.outcomes) == 4
        assert report.chunks_embedded == 0  # same chunks: their vectors were kept
        assert {d.pipeline for d in a.documents()} == {CURRENT}
        assert {d.status for d in a.documents()} == {"ready"}
        assert sorted(d.source for d in a.documents()) == [
            "guides/backup.md", "guides/logging.md", "reference/api.html", "reference/limits.txt"
        ]  # fmt: skip
        assert inside(a).store.reindex_reason() is None
        assert "seven" in a.ask("How many rotated log files are kept?").answer
        assert {o.status for o in a.reindex().outcomes} == set()  # nothing left to do


def test_chunks_whose_vectors_were_dropped_are_embedded_again(data: Path) -> None:
    _upgrade(data / "citewise.db", "DELETE FROM vectors; UPDATE chunks SET has_vector = 0;"
             " UPDATE documents SET status = 'indexing';")  # fmt: skip
    with Assistant(data_dir=data, embedder="hashing") as a:
        chunks = inside(a).store.count_missing_vectors()
        assert chunks > 0
        assert a.reindex().chunks_embedded == chunks
        assert inside(a).store.count_missing_vectors() == 0
        assert {d.status for d in a.documents()} == {"ready"}
        assert a.search("logrotate", mode="vector", k=3).hits


class _Stop(Exception):
    pass


class _StopAfterOne:
    def files(self, done: int, total: int, source: str) -> None:
        if done == 1:
            raise _Stop

    def embedded(self, done: int, total: int) -> None:
        pass


def test_an_interrupted_reindex_finishes_on_the_next_run(data: Path) -> None:
    _upgrade(data / "citewise.db", "UPDATE documents SET pipeline = '';")
    with Assistant(data_dir=data, embedder="hashing") as a:
        with pytest.raises(_Stop):
            a.reindex(progress=_StopAfterOne())
        assert inside(a).store.reindex_reason() == "new parsers"
        a.reindex()
        assert {d.pipeline for d in a.documents()} == {CURRENT}
        assert len(a.documents()) == 4 and inside(a).store.stats()["documents"] == 4
        assert inside(a).store.reindex_reason() is None


def test_a_document_with_neither_original_nor_file_is_reported(data: Path) -> None:
    _upgrade(data / "citewise.db", "UPDATE documents SET pipeline = '';")
    shutil.rmtree(data / "originals")
    with Assistant(data_dir=data, embedder="hashing") as a:
        report = a.reindex()
        assert {o.status for o in report.outcomes} == {"failed"}
        assert "ingest it again" in report.outcomes[0].reason
        assert len(a.documents()) == 4  # still answering from the version stored


def test_the_cli_reindexes(data: Path) -> None:
    _upgrade(data / "citewise.db", "UPDATE documents SET pipeline = '';")
    result = CliRunner().invoke(
        app, ["reindex", "--data-dir", str(data)], env={"CITEWISE_EMBEDDER": "hashing"}
    )
    assert result.exit_code == 0, result.output
    assert "re-parsed 4 documents" in " ".join(result.output.split())


def test_another_embedder_makes_every_vector_anew_only_when_asked(data: Path) -> None:
    from citewise.embed.hashing import HashingEmbedder
    from citewise.errors import InputError

    with Assistant(data_dir=data, embedder=HashingEmbedder(dim=64)) as a:
        with pytest.raises(InputError, match="--new-embedder"):
            a.reindex()
        assert inside(a).store.vectors_embedder() == "hashing-384"
        chunks = inside(a).store.stats()["chunks"]
        assert a.reindex(new_embedder=True).chunks_embedded == chunks
        assert inside(a).store.vectors_embedder() == "hashing-64"
        assert {d.status for d in a.documents()} == {"ready"}
        assert a.search("logrotate", mode="vector", k=3).hits
        assert a.reindex(new_embedder=True).chunks_embedded == 0  # nothing left: resumable
