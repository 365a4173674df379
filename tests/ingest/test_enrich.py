"""The enrichment hook: each enricher sees every chunked document before it is stored."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from citewise.embed.hashing import HashingEmbedder
from citewise.ingest.pipeline import IngestJob, run_ingest
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import NewDocument
from support import write_corpus


class TagByFormat:
    name = "tag-by-format"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def enrich(self, document: NewDocument) -> NewDocument:
        self.seen.append(document.source)
        return replace(document, tags=(*document.tags, f"fmt-{document.format}"))


def test_enrichers_see_each_document_and_what_they_add_is_stored(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "docs")
    enricher = TagByFormat()
    db = tmp_path / "s.db"
    job = IngestJob(paths=[corpus], collection="default", enrichers=[enricher])
    run_ingest(job, lambda: SQLiteStore(db), HashingEmbedder)
    store = SQLiteStore(db)
    docs = {d.source: d.tags for d in store.list_documents("default")}
    store.close()
    assert sorted(enricher.seen) == sorted(docs)
    assert "fmt-markdown" in docs["guides/backup.md"]
    assert docs["guides/logging.md"][:2] == ("ops", "logs")


def test_no_enrichers_by_default() -> None:
    assert IngestJob(paths=[], collection="c").enrichers == ()
