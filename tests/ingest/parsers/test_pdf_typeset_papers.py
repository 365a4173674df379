"""PDF text typeset the way TeX and many paper templates set it: fonts at size 1 scaled by
the text matrix, and words hyphenated at line ends (which pdfium joins into one line)."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen import canvas

from citewise.ingest.parsers import parse_file

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
