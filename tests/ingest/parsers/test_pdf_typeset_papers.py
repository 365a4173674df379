"""PDF text typeset the way TeX and many paper templates set it: fonts at size 1 scaled by
the text matrix, and words hyphenated at line ends (which pdfium joins into one line)."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen import canvas

from citewise.ingest.parsers import parse_file
from citewise.ingest.parsers._pdf_layout import Line, paragraphs

PARAGRAPH = [
    "Pelicans fly in long lines over the water and share infor-",
    "mation about fish shoals with their neighbours, which saves",
    "the colony much searching on calm mornings in the late sum-",
    "mer, when the young birds are learning to fish for themselves.",
    "Older birds lead the line and the young ones follow close",
    "behind them until the shoal is found.",
]
JOINED = (
    "Pelicans fly in long lines over the water and share information about fish shoals "
    "with their neighbours, which saves the colony much searching on calm mornings in the "
    "late summer, when the young birds are learning to fish for themselves. Older birds lead "
    "the line and the young ones follow close behind them until the shoal is found."
)
SECOND = "A second paragraph starts after a gap, as paragraphs do in a paper."


def _paper(path: Path, *, font_size: float, scale: float) -> Path:
    """Two paragraphs set at `font_size` times a text matrix scaled by `scale`."""
    c = canvas.Canvas(str(path))
    for top, lines in ((700.0, PARAGRAPH), (600.0, [SECOND])):
        text = c.beginText()
        text.setFont("Times-Roman", font_size)
        for i, line in enumerate(lines):
            text.setTextTransform(scale, 0, 0, scale, 72, top - 11 * i)
            text.textOut(line)
        c.drawText(text)
    c.showPage()
    c.save()
    return path


def test_lines_hyphenated_at_their_end_stay_in_one_paragraph(tmp_path: Path) -> None:
    doc = parse_file(_paper(tmp_path / "paper.pdf", font_size=9, scale=1))
    assert [b.text for b in doc.blocks] == [JOINED, SECOND]


def test_a_font_scaled_by_the_text_matrix_reads_like_its_scaled_size(tmp_path: Path) -> None:
    doc = parse_file(_paper(tmp_path / "paper.pdf", font_size=1, scale=9))
    assert [b.text for b in doc.blocks] == [JOINED, SECOND]


def test_a_heading_hyphenated_over_two_lines_stays_one_paragraph() -> None:
    def line(text: str, bottom: float, size: float) -> Line:
        return Line(text, bottom + size, bottom, 72.0, 300.0, size, bold=size > 10)

    page = [
        line("4.11.7. /usr/share/misc : Miscellaneous architecture-", 700.0, 14.0),
        line("independent data", 683.0, 14.0),
        line("This directory contains miscellaneous files which do not need", 660.0, 10.0),
        line("a separate subdirectory and are shared by all architectures.", 648.0, 10.0),
        line("Other files go into their own directories under the same tree.", 636.0, 10.0),
    ]
    texts = [p.text for p in paragraphs(page)]
    assert texts[0] == "4.11.7. /usr/share/misc : Miscellaneous architectureindependent data"
