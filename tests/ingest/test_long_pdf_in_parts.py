"""A long PDF read in parts (pages closed as they are done, the document reopened every few
pages, positions from only the current chunk's pages) is stored exactly as a whole read of
it would be: the same chunks, the same pages, the same line rectangles."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from citewise.embed.hashing import HashingEmbedder
from citewise.ingest import pdf_positions
from citewise.ingest.chunking import chunk_document
from citewise.ingest.parsers import parse_file
from citewise.ingest.parsers import pdf as pdf_parser
from citewise.ingest.pdf_positions import chunk_line_boxes
from citewise.ingest.pipeline import IngestJob, run_ingest
from citewise.store.sqlite.store import SQLiteStore
from citewise.types.positions import decode_boxes, encode_boxes

PAGES = 240
WORDS = [
    "marsh",
    "heron",
    "egret",
    "bittern",
    "reed",
    "channel",
    "tide",
    "mudflat",
    "willow",
    "sedge",
]


def _long_pdf(path: Path) -> Path:
    """Each page: a section heading every tenth page, then body lines naming the page."""
    c = canvas.Canvas(str(path))
    for page in range(1, PAGES + 1):
        c.setFont("Helvetica", 9)
        c.drawString(72, 805, "Survey of the Estuary")  # a running header
        y = 760
        if page % 10 == 1:
            c.setFont("Helvetica-Bold", 16)
            c.drawString(72, y, f"Part {page // 10 + 1}: the {WORDS[page % 10]} reaches")
            y -= 30
        c.setFont("Helvetica", 11)
        for line in range(30):
            words = " ".join(WORDS[(page + line + i) % 10] for i in range(8))
            c.drawString(72, y - 14 * line, f"p{page}l{line} {words} count{page * 100 + line}.")
        c.showPage()
    c.save()
    return path


def _rows(store: SQLiteStore) -> list[tuple[object, ...]]:
    (doc,) = store.list_documents("default")
    return [
        (c.text, c.section, c.page_start, c.page_end, c.boxes)
        for c in store.document_chunks(doc.doc_id)
    ]


@pytest.mark.slow
def test_a_long_pdf_read_in_parts_is_stored_as_a_whole_read_would_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = (
        _long_pdf(tmp_path / "docs" / "estuary.pdf")
        if (tmp_path / "docs").mkdir() is None
        else None
    )
    assert pdf is not None
    embedder = HashingEmbedder()
    monkeypatch.setattr(pdf_parser, "PAGES_PER_OPEN", 10**6)  # one open for the whole read
    whole = chunk_document(parse_file(pdf), embedder.count_tokens)
    # each chunk's rectangles from a document of its own: nothing carried between chunks
    whole_boxes = [chunk_line_boxes(pdf, [child])[0] for child in whole.children]
    stored_boxes = [decode_boxes(encode_boxes(b)) for b in whole_boxes]  # as the store keeps them
    expected = [
        (c.text, c.section, c.page_start, c.page_end, b)
        for c, b in zip(whole.children, stored_boxes, strict=True)
    ]

    monkeypatch.setattr(pdf_parser, "PAGES_PER_OPEN", 7)
    monkeypatch.setattr(pdf_positions, "PAGES_PER_OPEN", 7)
    store_path = tmp_path / "s.db"
    job = IngestJob(paths=[tmp_path / "docs"], collection="default")
    report = run_ingest(job, lambda: SQLiteStore(store_path), lambda: embedder)
    assert [o.status for o in report.outcomes] == ["ingested"]
    store = SQLiteStore(store_path)
    rows = _rows(store)
    store.close()

    assert rows == expected
    for page in range(1, PAGES + 1):  # every page is stored, with rectangles on it
        assert any(r[2] <= page <= r[3] for r in rows)  # type: ignore[operator]
        assert any(box.page == page for r in rows for box in r[4])  # type: ignore[attr-defined]
