"""Line rectangles of PDF chunks, taken at ingest from a PDF drawn with reportlab."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen import canvas

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.ingest.originals import original_path
from citewise.ingest.pdf_positions import chunk_line_boxes
from citewise.types import Child
from citewise.types.positions import LineBox, boxes_for_quote, decode_boxes, encode_boxes

LINES_P2 = [
    "Herons wade through the shallow marsh at dawn, hunting",
    "small fish with sudden strikes of the bill. The grey",
    "heron nests in tall trees in colonies called heronries,",
    "returning to the same infor-",
    "mation-rich sites every spring.",
]


def _pdf(path: Path) -> Path:
    """Two pages with a running header; page 2 holds five body lines from y=700 down."""
    c = canvas.Canvas(str(path))
    for page in (1, 2):
        c.setFont("Helvetica", 9)
        c.drawString(72, 805, "Field Notes — Wading Birds")
        c.setFont("Helvetica", 11)
        lines = ["Egrets are slender white birds of warm wetlands."] if page == 1 else LINES_P2
        for i, line in enumerate(lines):
            c.drawString(72, 700 - 14 * i, line)
        c.showPage()
    c.save()
    return path


def _child(text: str, page: int) -> Child:
    return Child(0, 0, text, text, "", page, page, "h")


def test_a_chunk_gets_one_box_per_line_in_pdf_points(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path / "birds.pdf")
    text = " ".join(LINES_P2).replace("infor- mation", "information")
    (boxes,) = chunk_line_boxes(pdf, [_child(text, 2)])
    assert [b.page for b in boxes] == [2] * 5
    for i, box in enumerate(boxes):
        baseline = 700 - 14 * i
        assert box.y0 <= baseline + 1 and box.y1 >= baseline + 6  # the line's glyphs
        assert 71 <= box.x0 <= 74 and box.x1 > 200
    assert text[boxes[2].start : boxes[2].end].startswith("heron nests")


def test_a_quote_keeps_only_its_lines(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path / "birds.pdf")
    text = " ".join(LINES_P2).replace("infor- mation", "information")
    (boxes,) = chunk_line_boxes(pdf, [_child(text, 2)])
    quote = "The grey heron nests in tall trees in colonies called heronries"
    kept = boxes_for_quote(boxes, text, quote)
    assert [round(b.y0) for b in kept] == [round(boxes[1].y0), round(boxes[2].y0)]
    assert boxes_for_quote(boxes, text, "words found nowhere") == list(boxes)


def test_text_not_on_the_page_gets_no_boxes(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path / "birds.pdf")
    (boxes,) = chunk_line_boxes(pdf, [_child("Penguins cannot fly but they swim well.", 1)])
    assert boxes == ()


def test_boxes_round_trip_through_their_json() -> None:
    boxes = (LineBox(3, 72.0, 690.5, 300.25, 702.0, 0, 40),)
    assert decode_boxes(encode_boxes(boxes)) == boxes
    assert decode_boxes(None) == ()


def test_ingest_stores_boxes_with_chunks_and_keeps_the_original(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path / "docs" / "birds.pdf") if (tmp_path / "docs").mkdir() is None else None
    assert pdf is not None
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        a.ingest([tmp_path / "docs"])
        (doc,) = a.documents()
        chunks = inside(a).store.document_chunks(doc.doc_id)
        boxed = [c for c in chunks if c.boxes]
        assert boxed and all(c.doc_hash == doc.content_hash for c in chunks)
        assert any(b.page == 2 for c in boxed for b in c.boxes)
        kept = original_path(a.settings.originals_dir, doc.content_hash)
        assert kept is not None and kept.read_bytes() == pdf.read_bytes()


def test_a_citation_carries_its_boxes_as_page_and_corners() -> None:
    from citewise.types.positions import box_of

    box = LineBox(2, 72.5, 690.0, 300.0, 702.0, 10, 50)
    assert box.to_json() == {"page": 2, "x0": 72.5, "y0": 690.0, "x1": 300.0, "y1": 702.0}
    assert box_of(box.to_json()) == LineBox(2, 72.5, 690.0, 300.0, 702.0)


def test_deleting_a_document_removes_its_kept_original(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    _pdf(tmp_path / "docs" / "birds.pdf")
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        a.ingest([tmp_path / "docs"])
        a.ingest([tmp_path / "docs"], collection="other")
        doc = a.delete("birds.pdf")
        kept = original_path(a.settings.originals_dir, doc.content_hash)
        assert kept is not None and kept.exists()  # the other collection still holds it
        a.delete("birds.pdf", collection="other")
        assert not kept.exists()


def test_a_pdf_stored_before_positions_gets_them_on_the_next_ingest(tmp_path: Path) -> None:
    import sqlite3

    (tmp_path / "docs").mkdir()
    _pdf(tmp_path / "docs" / "birds.pdf")
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        a.ingest([tmp_path / "docs"])
        old_key = a.documents()[0].pipeline.split("; positions")[0]
    with sqlite3.connect(tmp_path / "data" / "citewise.db") as db:  # as an older citewise left it
        db.execute("UPDATE chunks SET boxes = NULL")
        db.execute("UPDATE documents SET pipeline = ?", (old_key,))
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        report = a.ingest([tmp_path / "docs"])
        assert [o.status for o in report.outcomes] == ["replaced"]
        (doc,) = a.documents()
        assert any(c.boxes for c in inside(a).store.document_chunks(doc.doc_id))
