"""Stored documents follow the parsers and chunking that made them: an upgrade re-parses
unchanged files, a replacement keeps the vectors of chunks it did not change."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import citewise.ingest.parsers as parsers
from citewise.assistant import Assistant
from citewise.config import load_settings
from citewise.errors import NoTextError
from citewise.ingest.chunking import ChunkingOptions
from citewise.ingest.pipeline import pipeline_key
from citewise.types import IngestReport
from support import write_corpus


def _by_source(report: IngestReport) -> dict[str, tuple[str, str]]:
    return {o.source: (o.status, o.reason) for o in report.outcomes}


def _open(data: Path, **overrides: object) -> Assistant:
    settings = load_settings(data_dir=data, embedder="hashing", **overrides)
    return Assistant(settings=settings, embedder="hashing")


def test_a_parser_upgrade_reparses_unchanged_files_and_reuses_their_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = write_corpus(tmp_path / "docs")
    with _open(tmp_path / "data") as a:
        first = a.ingest([corpus])
        assert first.chunks_embedded > 0
        monkeypatch.setattr(parsers, "PARSER_VERSION", parsers.PARSER_VERSION + 1)
        upgraded = a.ingest([corpus])
        assert {s for s, _ in _by_source(upgraded).values()} == {"replaced"}
        assert all(r.startswith("re-parsed") for _, r in _by_source(upgraded).values())
        assert upgraded.chunks_embedded == 0  # same chunk texts: the old vectors are kept
        assert {d.status for d in a.documents()} == {"ready"}
        assert len(a.documents()) == 4
        assert a.search("logrotate nightly rotation", mode="vector").hits
        again = a.ingest([corpus])
        assert {s for s, _ in _by_source(again).values()} == {"unchanged"}


def test_other_chunk_sizes_rechunk_an_unchanged_corpus(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "docs")
    with _open(tmp_path / "data") as a:
        a.ingest([corpus])
    with _open(tmp_path / "data", child_tokens=60, min_child_tokens=10) as smaller:
        report = smaller.ingest([corpus])
        assert {s for s, _ in _by_source(report).values()} == {"replaced"}


def test_an_edit_re_embeds_only_the_chunks_it_changed(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    sections = [
        f"## Part {i}\n\n" + f"Topic {i} words about storage tier {i}. " * 30 for i in range(6)
    ]
    page = docs / "manual.md"
    page.write_text("# Manual\n\n" + "\n\n".join(sections), encoding="utf-8")
    with _open(tmp_path / "data") as a:
        total = a.ingest([docs]).chunks_embedded
        assert total >= 6
        sections[2] = "## Part 2\n\nRewritten: archives now go to cold storage."
        page.write_text("# Manual\n\n" + "\n\n".join(sections), encoding="utf-8")
        edited = a.ingest([docs])
        assert _by_source(edited)["manual.md"][0] == "replaced"
        assert edited.chunks_embedded == 1  # the rewritten part; the other ten keep theirs
        hits = a.search("archives cold storage", mode="vector", k=3).hits
        assert hits and "cold storage" in hits[0].text
        db = sqlite3.connect(a.settings.db_path)
        orphans = db.execute(
            "SELECT count(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)"
        ).fetchone()
        missing = db.execute("SELECT count(*) FROM chunks WHERE has_vector = 0").fetchone()
        assert orphans == (0,) and missing == (0,)


def test_an_unchanged_file_the_new_parsers_find_no_text_in_leaves_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    index = docs / "genindex.html"
    index.write_text(
        '<div class="body"><h1>Index</h1><p>Some words of prose here.</p></div>', encoding="utf-8"
    )
    (docs / "keep.md").write_text("# Keep\n\nThis page stays searchable.\n", encoding="utf-8")
    with _open(tmp_path / "data") as a:
        a.ingest([docs])
        assert "genindex.html" in {d.source for d in a.documents()}
        index.write_text('<div class="body"><h1>Index</h1></div>', encoding="utf-8")
        a.ingest([docs])  # changed bytes without text: the stored version is kept
        assert "genindex.html" in {d.source for d in a.documents()}

    with _open(tmp_path / "data2") as b:
        index.write_text(
            '<div class="body"><h1>Index</h1><p>Some words of prose here.</p></div>',
            encoding="utf-8",
        )
        b.ingest([docs])
        # the same bytes, but a newer parser sees no text in them
        monkeypatch.setattr(parsers, "PARSER_VERSION", parsers.PARSER_VERSION + 1)
        real_parse = parsers.parse_file

        def parse_without_prose(path: Path, **kwargs: object):  # type: ignore[no-untyped-def]
            if path.name == "genindex.html":
                raise NoTextError("the HTML page contains no text in its main content")
            return real_parse(path, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(parsers, "parse_file", parse_without_prose)
        report = b.ingest([docs])
        status, reason = _by_source(report)["genindex.html"]
        assert status == "failed" and "earlier citewise was removed" in reason
        assert {d.source for d in b.documents()} == {"keep.md"}


def test_a_store_from_before_the_pipeline_column_is_migrated_and_reparsed(
    tmp_path: Path,
) -> None:
    corpus = write_corpus(tmp_path / "docs")
    with _open(tmp_path / "data") as a:
        a.ingest([corpus])
        db_path = a.settings.db_path
    db = sqlite3.connect(db_path)
    db.execute("ALTER TABLE documents DROP COLUMN pipeline")
    db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")  # as such stores were
    db.commit()
    db.close()
    with _open(tmp_path / "data") as old:
        report = old.ingest([corpus])
        assert {s for s, _ in _by_source(report).values()} == {"replaced"}
        assert report.chunks_embedded == 0
        assert {d.pipeline for d in old.documents()} == {pipeline_key(ChunkingOptions())}
