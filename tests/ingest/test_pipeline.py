"""The ingest flow end to end on a small real corpus (hashing embedder)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from citewise.assistant import Assistant
from citewise.types import IngestReport
from support import write_corpus


def _statuses(report: IngestReport) -> dict[str, str]:
    return {o.source: o.status for o in report.outcomes}


def _sources(assistant: Assistant, query: str, mode: str = "keyword") -> list[str]:
    return [h.source for h in assistant.search(query, k=5, mode=mode).hits]  # type: ignore[arg-type]


def test_ingest_indexes_every_format_with_relative_sources(
    assistant: Assistant, corpus: Path
) -> None:
    report = assistant.ingest([corpus])
    assert _statuses(report) == {
        "guides/logging.md": "ingested",
        "guides/backup.md": "ingested",
        "reference/limits.txt": "ingested",
        "reference/api.html": "ingested",
    }
    assert _sources(assistant, "logrotate")[0] == "guides/logging.md"
    assert _sources(assistant, "bearer token")[0] == "reference/api.html"
    assert "Home | Docs" not in " ".join(h.text for h in assistant.search("home docs").hits)
    docs = {d.source: d for d in assistant.documents()}
    assert docs["guides/logging.md"].title == "Logging guide"
    assert docs["guides/logging.md"].tags == ("ops", "logs")
    assert docs["guides/backup.md"].category == "guides"
    assert all(d.status == "ready" for d in docs.values())


def test_hybrid_search_returns_the_contract_fields(assistant: Assistant, corpus: Path) -> None:
    assistant.ingest([corpus])
    result = assistant.search("how often are database snapshots taken", k=3)
    top = result.to_json()["hits"][0]  # type: ignore[index]
    assert set(top) == {"rank", "source", "page", "section", "chunk_id", "score", "text"}
    assert top["source"] == "guides/backup.md" and top["page"] is None
    assert {"keyword", "embed_query", "vector", "total"} <= set(result.timings_ms)


def test_search_filters_by_category_and_tag(assistant: Assistant, corpus: Path) -> None:
    assistant.ingest([corpus])
    assert {h.source for h in assistant.search("default", category="reference").hits} <= {
        "reference/limits.txt",
        "reference/api.html",
    }
    assert {h.source for h in assistant.search("default", tags=["ops"]).hits} == {
        "guides/logging.md"
    }


def test_unchanged_files_are_skipped(assistant: Assistant, corpus: Path) -> None:
    assistant.ingest([corpus])
    again = assistant.ingest([corpus])
    assert set(_statuses(again).values()) == {"unchanged"}
    assert again.chunks_embedded == 0


def test_changed_file_replaces_old_version_everywhere(assistant: Assistant, corpus: Path) -> None:
    assistant.ingest([corpus])
    (corpus / "guides/backup.md").write_text("# Backups\n\nUse restic for nightly archives.\n")
    report = assistant.ingest([corpus])
    assert _statuses(report)["guides/backup.md"] == "replaced"
    assert _sources(assistant, "snapshot") == []
    assert _sources(assistant, "restic") == ["guides/backup.md"]
    vector_texts = [h.text for h in assistant.search("snapshot region", mode="vector").hits]
    assert not any("snapshot" in t for t in vector_texts)
    assert len([d for d in assistant.documents() if d.source == "guides/backup.md"]) == 1


def test_delete_leaves_no_trace_in_any_index(assistant: Assistant, corpus: Path) -> None:
    assistant.ingest([corpus])
    assistant.delete("guides/logging.md")
    assert "guides/logging.md" not in _sources(assistant, "logrotate rotation")
    for mode in ("keyword", "vector", "hybrid"):
        assert "guides/logging.md" not in _sources(assistant, "rotate log files gzip", mode)
    db = sqlite3.connect(assistant.settings.db_path)
    assert db.execute(
        "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'logrotate'"
    ).fetchone() == (0,)
    orphans = db.execute(
        "SELECT count(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)"
    ).fetchone()
    assert orphans == (0,)


def test_prune_removes_documents_whose_files_are_gone(assistant: Assistant, corpus: Path) -> None:
    assistant.ingest([corpus])
    (corpus / "reference/limits.txt").unlink()
    report = assistant.ingest([corpus], prune=True)
    assert _statuses(report)["reference/limits.txt"] == "pruned"
    assert "reference/limits.txt" not in {d.source for d in assistant.documents()}


def test_file_argument_source_is_its_name(assistant: Assistant, corpus: Path) -> None:
    report = assistant.ingest([corpus / "guides" / "backup.md"])
    assert _statuses(report) == {"backup.md": "ingested"}


def test_embedding_failure_midway_is_resumed_by_next_run(tmp_path: Path, corpus: Path) -> None:
    from citewise.embed import create_embedder

    real = create_embedder("hashing")

    class FailingEmbedder:
        name, dim, max_tokens = real.name, real.dim, real.max_tokens

        def count_tokens(self, text: str) -> int:
            return real.count_tokens(text)

        def embed_query(self, text: str):  # type: ignore[no-untyped-def]
            return real.embed_query(text)

        def embed_documents(self, texts):  # type: ignore[no-untyped-def]
            raise RuntimeError("simulated crash while embedding")

    with Assistant(data_dir=tmp_path / "d", embedder=FailingEmbedder()) as broken:  # type: ignore[arg-type]
        with pytest.raises(RuntimeError, match="simulated"):
            broken.ingest([corpus])
        assert {d.status for d in broken.documents()} == {"indexing"}
        assert _sources(broken, "logrotate") == ["guides/logging.md"]  # keyword works already
    with Assistant(data_dir=tmp_path / "d", embedder="hashing") as fixed:
        report = fixed.ingest([corpus])
        # this run embedded them: they count as ingested, not as unchanged beside the chunks
        assert set(_statuses(report).values()) == {"ingested"}
        assert report.chunks_embedded > 0
        assert {d.status for d in fixed.documents()} == {"ready"}
        assert _sources(fixed, "logrotate nightly rotation", "vector")


def test_bad_files_are_reported_and_the_rest_ingested(assistant: Assistant, tmp_path: Path) -> None:
    from reportlab.pdfgen import canvas

    docs = write_corpus(tmp_path / "bad", {
        "good.md": "# Good\n\nThis file is fine and mentions pelicans.\n",
        "empty.txt": "",
        "corrupt.pdf": b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\ngarbage without xref",
        "fake.pdf": "This is plain text pretending to be a PDF.\n",
        "latin1.txt": "Caf\xe9 cr\xe8me r\xe9sum\xe9 \xfcber pelicans.\n".encode("latin-1"),
        "program.exe": b"MZ\x90\x00\x03\x00\x00\x00\x04\x00",
    })  # fmt: skip
    enc = canvas.Canvas(str(docs / "secret.pdf"), encrypt="s3cret")
    enc.drawString(72, 720, "Top secret pelican plans.")
    enc.save()
    report = assistant.ingest([docs])
    by = {o.source: o for o in report.outcomes}
    assert by["good.md"].status == "ingested"
    assert by["latin1.txt"].status == "ingested"
    assert by["empty.txt"].status == "failed" and "empty" in by["empty.txt"].reason
    assert by["corrupt.pdf"].status == "failed" and "corrupt" in by["corrupt.pdf"].reason
    assert by["fake.pdf"].status == "failed" and "not a PDF" in by["fake.pdf"].reason
    assert by["secret.pdf"].status == "failed" and "encrypted" in by["secret.pdf"].reason
    assert by["program.exe"].status == "skipped" and ".exe" in by["program.exe"].reason
    hits = assistant.search("café crème résumé", mode="keyword").hits
    assert hits and hits[0].source == "latin1.txt" and "Café crème" in hits[0].text


def test_build_and_cache_folders_are_not_entered_but_reported(
    assistant: Assistant, tmp_path: Path
) -> None:
    root = write_corpus(
        tmp_path / "site",
        {
            "index.html": "<html><body><h1>Guide</h1><p>Install with pip.</p></body></html>",
            "_sources/index.rst.txt": "Guide\n=====\n\nInstall with pip.\n",
            "node_modules/pkg/README.md": "# pkg\n\nSome package.\n",
            ".git/notes.txt": "internal",
        },
    )
    by = _statuses(assistant.ingest([root]))
    assert by == {"index.html": "ingested", "_sources/": "skipped", "node_modules/": "skipped"}
    named = _statuses(assistant.ingest([root / "_sources"]))
    assert named == {"_sources/index.rst.txt": "ingested"}  # named from the collection's root
