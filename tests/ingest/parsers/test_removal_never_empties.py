"""Text-removing rules fall back to keeping the text when they would remove all of it."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen import canvas

from citewise.ingest.parsers import parse_file
from citewise.ingest.parsers._pdf_layout import Line, drop_running_lines


def _one_line_pages(path: Path, lines: list[str], y: float = 800) -> Path:
    c = canvas.Canvas(str(path))
    for text in lines:
        c.setFont("Helvetica", 11)
        c.drawString(72, y, text)
        c.showPage()
    c.save()
    return path


def test_pdf_of_short_numbered_lines_is_read_not_called_scanned(tmp_path: Path) -> None:
    pdf = _one_line_pages(tmp_path / "steps.pdf", [f"Step {n} done" for n in (1, 2, 3)])
    parsed = parse_file(pdf)
    assert [(b.text, b.page) for b in parsed.blocks] == [
        ("Step 1 done", 1),
        ("Step 2 done", 2),
        ("Step 3 done", 3),
    ]


def test_running_footer_still_goes_when_pages_keep_other_text(tmp_path: Path) -> None:
    c = canvas.Canvas(str(tmp_path / "report.pdf"))
    for n in (1, 2, 3):
        c.setFont("Helvetica", 11)
        c.drawString(72, 700, f"Body text of chapter {'abc'[n - 1]} about herons.")
        c.drawString(280, 30, f"Page {n} of 3")
        c.showPage()
    c.save()
    texts = [b.text for b in parse_file(tmp_path / "report.pdf").blocks]
    assert texts and not any("Page" in t for t in texts)


def _line(text: str, top: float) -> Line:
    return Line(text, top, top - 10, 72, 300, 11)


def test_a_page_holding_only_its_page_number_stays_empty() -> None:
    pages = [[_line(f"Body of part {p}", 400), _line(str(n), 20)] for n, p in enumerate("abc", 1)]
    pages.append([_line("4", 20)])
    kept = drop_running_lines(pages, [842.0] * 4)
    assert [[ln.text for ln in page] for page in kept] == [
        ["Body of part a"],
        ["Body of part b"],
        ["Body of part c"],
        [],
    ]


def test_a_document_of_page_numbers_only_is_kept_whole() -> None:
    pages = [[_line(str(n), 20)] for n in (1, 2, 3)]
    kept = drop_running_lines(pages, [842.0] * 3)
    assert [[ln.text for ln in page] for page in kept] == [["1"], ["2"], ["3"]]
