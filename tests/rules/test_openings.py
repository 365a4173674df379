"""Definitional questions bring the opening of the page about their subject (real store)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.ingest.chunking import chunk_document
from citewise.rules.openings import with_openings
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import Block, Hit, NewDocument, ParsedDocument

TITLE = "10. DHAT: a dynamic heap analysis tool"


def _doc(source: str, title: str, sections: list[tuple[str, str]]) -> NewDocument:
    blocks = tuple(
        Block(text, (title, heading) if heading else (title,)) for heading, text in sections
    )
    parsed = ParsedDocument(title=title, blocks=blocks, format="html")
    chunks = chunk_document(parsed, lambda t: len(t.split()))
    return NewDocument(
        collection="default", source=source, title=title, format="html", category="",
        tags=(), content_hash=source, mtime=0.0, size=1, page_count=None, chunks=chunks,
    )  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "c.db")
    s.add_document(
        _doc(
            "dh-manual.html",
            TITLE,
            [
                ("", "To use this tool, you must specify --tool=dhat on the command line."),
                ("10.1. Overview", "DHAT is a tool for examining how programs use the heap."),
                *[
                    (f"10.{i}. Part {i}", f"DHAT writes detail number {i}. " * 30)
                    for i in range(2, 9)
                ],
            ],
        )
    )
    yield s
    s.close()


def _hits(store: SQLiteStore) -> list[Hit]:
    records = store.document_chunks(store.list_documents("default")[0].doc_id)
    later = [Hit.of(r, i + 1, 1.0 - i / 100) for i, r in enumerate(reversed(records))]
    return later  # the opening passages last


def test_the_one_page_about_the_subject_leads_with_its_opening_and_overview(
    store: SQLiteStore,
) -> None:
    opening = store.document_chunks(store.list_documents("default")[0].doc_id)[:2]
    ranked = with_openings(_hits(store), [opening])
    assert [h.rank for h in ranked] == list(range(1, len(ranked) + 1))
    assert ranked[0].text.startswith("To use this tool")
    assert ranked[1].text.startswith("DHAT is a tool")  # the short opening brings the next
    assert len({h.chunk_id for h in ranked}) == len(ranked)
