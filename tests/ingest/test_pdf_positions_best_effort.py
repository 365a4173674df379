"""Highlight positions are best-effort: text pdfium lower-cases into more characters than
it had (Turkish dotted capital I) is still placed, and a chunk whose boxes cannot be placed
costs its highlight only, with one warning naming the file and page."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.ingest import pdf_positions
from citewise.ingest.pdf_positions import chunk_line_boxes
from citewise.types import Child

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
REPORT_LINES = [
    "Annual report of İstanbul Holding: revenue grew in İzmir and in Ankara.",
    "Net income rose by twelve percent over the financial year.",
]


_TOPICS = ["the board", "the Bursa plant", "the export office", "the audit committee"]
_DEEDS = ["approved a dividend", "trained its staff", "cut energy use", "hired engineers"]
MORE_PAGES = [  # full pages, so that no chunk spans two of them
    [f"In quarter {q} of {y}, {t} {d} across region {r}." for q in range(1, 5)
     for y in (2024, 2025) for t in _TOPICS[page::2] for d in _DEEDS for r in "NS"][:40]
    for page in (0, 1)
]  # fmt: skip


def _report_pdf(path: Path, pages: int = 1) -> Path:
    """An annual report set in DejaVu Sans (it has the dotted capital I); its first page
    holds REPORT_LINES, the others a line of MORE_PAGES each."""
    pdfmetrics.registerFont(TTFont("DejaVuSans", str(DEJAVU)))
    c = canvas.Canvas(str(path))
    for lines in [REPORT_LINES, *MORE_PAGES][:pages]:
        c.setFont("DejaVuSans", 11)
        for i, line in enumerate(lines):
            c.drawString(72, 760 - 14 * i, line)
        c.showPage()
    c.save()
    return path


def _child(text: str, page: int) -> Child:
    return Child(0, 0, text, text, "", page, page, "h")


@pytest.mark.skipif(not DEJAVU.exists(), reason="fonts-dejavu-core is not installed")
def test_a_dotted_capital_i_does_not_shift_the_boxes_of_its_line(tmp_path: Path) -> None:
    pdf = _report_pdf(tmp_path / "report.pdf")
    text = " ".join(REPORT_LINES)
    (boxes,) = chunk_line_boxes(pdf, [_child(text, 1)])
    assert len(boxes) == 2 and boxes[0].y0 > boxes[1].y1
    assert text[boxes[0].start : boxes[0].end].startswith("Annual report of İstanbul")
    assert text[boxes[1].start : boxes[1].end].startswith("Net income")


@pytest.mark.skipif(not DEJAVU.exists(), reason="fonts-dejavu-core is not installed")
def test_a_chunk_whose_boxes_fail_keeps_the_document_and_warns_once_with_file_and_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "docs").mkdir()
    _report_pdf(tmp_path / "docs" / "report.pdf", pages=3)
    place = pdf_positions._boxes

    def failing_on_page_2(pdf: object, pages: object, child: Child) -> object:
        if child.page_start == 2:
            raise IndexError("list index out of range")
        return place(pdf, pages, child)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf_positions, "_boxes", failing_on_page_2)
    caplog.set_level(logging.WARNING, logger=pdf_positions.__name__)
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        report = a.ingest([tmp_path / "docs"])
        assert [o.status for o in report.outcomes] == ["ingested"]
        (doc,) = a.documents()
        chunks = inside(a).store.document_chunks(doc.doc_id)
    assert {c.page_start for c in chunks} == {1, 2, 3}  # every page's text is kept
    assert all(bool(c.boxes) == (c.page_start != 2) for c in chunks)
    warnings = [r.getMessage() for r in caplog.records if r.name == pdf_positions.__name__]
    assert len(warnings) == 1
    assert "report.pdf page 2" in warnings[0] and "IndexError" in warnings[0]


def test_a_pdf_pdfium_cannot_open_gets_no_boxes_and_no_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    assert chunk_line_boxes(broken, [_child("anything", 1)]) == [()]


REPEATED = "the dual system of bound constraints on wetland habitat loss"
PAGE_1 = [
    f"Part two discusses {REPEATED} in detail.",
    "Herons wade through the shallow marsh at dawn.",
    "Chapter two begins here with the survey of the colonies.",
]
PAGE_2 = [
    "The survey counted nests along the river in three seasons.",
    f"The report then covers {REPEATED}",
    "in the northern marshes, where drainage removed most reed beds.",
]


def _two_pages(path: Path) -> Path:
    c = canvas.Canvas(str(path))
    for lines in (PAGE_1, PAGE_2):
        c.setFont("Helvetica", 11)
        for i, line in enumerate(lines):
            c.drawString(72, 700 - 14 * i, line)
        c.showPage()
    c.save()
    return path


def test_words_a_chunk_repeats_from_earlier_on_its_page_do_not_cost_its_next_page_its_marks(
    tmp_path: Path,
) -> None:
    pdf = _two_pages(tmp_path / "report.pdf")
    text = " ".join([PAGE_1[-1], *PAGE_2])
    chunk = Child(0, 0, text, text, "", 1, 2, "h")
    (boxes,) = chunk_line_boxes(pdf, [chunk])
    assert [b.page for b in boxes] == [1, 2, 2, 2]
    assert [text[b.start : b.end] for b in boxes[1:]] == [line.rstrip(".") for line in PAGE_2]
