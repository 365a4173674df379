"""PDF parsing on PDFs drawn with reportlab at run time, plus the pure layout rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from citewise.errors import CorruptDocumentError, EncryptedDocumentError, NoTextError
from citewise.ingest.parsers import parse_file
from citewise.ingest.parsers._pdf_layout import Line, drop_running_lines, join_lines, paragraphs
from citewise.ingest.parsers._pdf_outline import is_title_line

TOPICS = ["feeding", "nesting", "migration", "plumage"]


def _body(c: canvas.Canvas, y: float, lines: list[str], size: float = 11) -> float:
    c.setFont("Helvetica", size)
    for line in lines:
        if line:
            c.drawString(72, y, line)
        y -= 14
    return y


def _handbook(path: Path, *, outline: bool) -> Path:
    """Four pages, each with a running header and a numbered footer; page 2 has a word
    hyphenated across a line break; with `outline`, nested bookmarks per page."""
    c = canvas.Canvas(str(path))
    c.setTitle("Pelican Handbook")
    for page, topic in enumerate(TOPICS, start=1):
        c.setFont("Helvetica", 9)
        c.drawString(72, 805, "ACME Ornithology — Pelican Handbook")
        c.drawString(280, 30, f"Page {page} of {len(TOPICS)}")
        if outline:
            c.bookmarkPage(f"p{page}")
            c.addOutlineEntry(f"Chapter {page}: {topic.title()}", f"p{page}", level=0)
            if page == 3:
                c.bookmarkPage("p3-routes")
                c.addOutlineEntry("Routes", "p3-routes", level=1)
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, 760, f"Chapter {page}: {topic.title()}")
        lines = [
            f"Pelicans spend much of the year on {topic}, which shapes their daily",
            f"routine on page {page}. Observers record this behaviour carefully.",
        ]
        if page == 2:
            lines += [
                "",
                "Colonies share infor-",
                "mation about fish shoals with their neighbours.",
            ]
        _body(c, 730, lines)
        c.showPage()
    c.save()
    return path


def test_pdf_pages_are_physical_and_headers_are_dropped(tmp_path: Path) -> None:
    doc = parse_file(_handbook(tmp_path / "handbook.pdf", outline=True))
    assert doc.format == "pdf" and doc.page_count == 4
    assert doc.title == "Pelican Handbook"
    for page, topic in enumerate(TOPICS, start=1):
        texts = [b.text for b in doc.blocks if b.page == page]
        assert any(f"much of the year on {topic}" in t for t in texts), texts
    all_text = "\n".join(b.text for b in doc.blocks)
    assert "ACME Ornithology" not in all_text
    assert "Page 2 of 4" not in all_text and "of 4" not in all_text


def test_pdf_lines_of_a_paragraph_are_joined_and_dehyphenated(tmp_path: Path) -> None:
    doc = parse_file(_handbook(tmp_path / "handbook.pdf", outline=False))
    texts = [b.text for b in doc.blocks if b.page == 2]
    assert (
        "Pelicans spend much of the year on nesting, which shapes their daily routine on "
        "page 2. Observers record this behaviour carefully." in texts
    )
    assert "Colonies share information about fish shoals with their neighbours." in texts


def test_pdf_outline_sets_nested_heading_paths(tmp_path: Path) -> None:
    doc = parse_file(_handbook(tmp_path / "handbook.pdf", outline=True))
    paths = {b.page: b.heading_path for b in doc.blocks}
    assert paths[1] == ("Chapter 1: Feeding",)
    assert paths[3] == ("Chapter 3: Migration", "Routes")
    assert paths[4] == ("Chapter 4: Plumage",)
    # the heading line itself is a heading, not a paragraph
    assert not any(b.text.startswith("Chapter ") for b in doc.blocks)


def test_pdf_without_outline_guesses_headings(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    c = canvas.Canvas(str(path))
    c.setFont("Helvetica-Bold", 20)
    c.drawString(72, 780, "Pelican Survey Report")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(72, 746, "1 Introduction")
    y = _body(c, 726, ["We counted pelicans in three colonies during the spring.", ""])
    c.setFont("Helvetica-Bold", 13)
    c.drawString(72, y, "2 Methods")
    y = _body(c, y - 20, ["Observers walked fixed transects at dawn every day.", ""])
    c.setFont("Helvetica-Bold", 11)
    c.drawString(72, y, "2.1 Equipment")
    _body(c, y - 18, ["Each observer carried binoculars and a notebook."])
    c.save()
    doc = parse_file(path)
    by_text = {b.text: b.heading_path for b in doc.blocks}
    root = "Pelican Survey Report"
    assert by_text["We counted pelicans in three colonies during the spring."] == (
        root,
        "1 Introduction",
    )
    assert by_text["Each observer carried binoculars and a notebook."] == (
        root,
        "2 Methods",
        "2.1 Equipment",
    )
    assert doc.title == root  # reportlab's "untitled" metadata is ignored


def test_encrypted_pdf_is_reported_as_encrypted(tmp_path: Path) -> None:
    path = tmp_path / "secret.pdf"
    c = canvas.Canvas(str(path), encrypt="s3cret")
    c.drawString(72, 720, "Top secret pelican plans.")
    c.save()
    with pytest.raises(EncryptedDocumentError, match="password"):
        parse_file(path)


def test_truncated_pdf_is_corrupt(tmp_path: Path) -> None:
    data = _handbook(tmp_path / "whole.pdf", outline=False).read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(CorruptDocumentError):
        parse_file(path)


def test_pdf_of_images_has_no_text(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    c = canvas.Canvas(str(path))
    c.rect(72, 72, 400, 600, fill=1)
    c.save()
    with pytest.raises(NoTextError, match="scanned images and OCR is off"):
        parse_file(path, ocr="none")
    with pytest.raises(NoTextError, match="OCR found no text on its pages"):
        parse_file(path, ocr="tesseract")


def _line(text: str, y: float, size: float = 10.0, width: float = 400.0) -> Line:
    return Line(text, y + size, y, 72.0, 72.0 + width, size)


def test_running_lines_must_recur_on_half_the_pages() -> None:
    pages = [
        [_line("Handbook", 800), _line(f"body text {i}", 400), _line(f"- {i} -", 20)]
        for i in range(1, 5)
    ]
    pages[0].insert(0, _line("Only once at the top", 810))
    kept = drop_running_lines(pages, [842.0] * 4)
    texts = [[ln.text for ln in page] for page in kept]
    assert texts == [["Only once at the top", "body text 1"]] + [
        [f"body text {i}"] for i in (2, 3, 4)
    ]
    assert drop_running_lines(pages[:2], [842.0] * 2)[1] == pages[1]  # too few pages to tell


def test_join_lines_mends_hyphenation_but_keeps_real_hyphens() -> None:
    assert join_lines(["the infor-", "mation age"]) == "the information age"
    assert join_lines(["a well-", "Known case"]) == "a well- Known case"
    assert join_lines(["  spaced   out ", "", "text"]) == "spaced out text"


def test_paragraphs_split_at_vertical_gaps_and_font_changes() -> None:
    lines = [
        _line("Heading", 700, size=16, width=80),
        _line("first paragraph line one", 670),
        _line("first paragraph line two.", 656),
        _line("second paragraph after a gap", 620),
    ]
    got = [(p.text, p.lines) for p in paragraphs(lines)]
    assert got == [
        ("Heading", 1),
        ("first paragraph line one first paragraph line two.", 2),
        ("second paragraph after a gap", 1),
    ]


def test_outline_titles_match_numbered_heading_lines() -> None:
    assert is_title_line("2.1 ASN.1 syntax", "ASN.1 syntax")
    assert is_title_line("Chapter 3 Routes", "Routes")
    assert not is_title_line("More about ASN.1 syntax", "ASN.1 syntax")


def test_a_chapter_header_with_a_page_counter_is_running_on_few_pages() -> None:
    # "Chapter 2: Functions 7" heads only chapter 2's pages, far fewer than half of them
    pages = [[_line(f"Intro text {i}", 400)] for i in range(1, 9)]
    for n in (5, 6, 7):
        pages[n - 1].insert(0, _line(f"Chapter 2: Functions {n}", 800))
    pages[7].insert(0, _line("Returns: 0 on success", 20))  # a body line at an edge, twice
    pages[6].append(_line("Returns: 0 on success", 20))
    kept = drop_running_lines(pages, [842.0] * 8)
    texts = [ln.text for page in kept for ln in page]
    assert not any(t.startswith("Chapter 2") for t in texts)
    assert texts.count("Returns: 0 on success") == 2  # same text each time: not a counter


def test_headings_below_the_outline_deepen_its_paths(tmp_path: Path) -> None:
    # a reference chapter: the outline lists the chapter, bold lines name each function
    path = tmp_path / "reference.pdf"
    c = canvas.Canvas(str(path))
    c.bookmarkPage("ref")
    c.addOutlineEntry("Function reference", "ref", level=0)
    returns = "Returns zero when it succeeds and a code otherwise."
    lines = [
        (16, "4 Function reference"),
        (13, "feed pelican"),
        (11, f"Feeds one pelican. {returns}"),
        (13, "count flock"),
        (11, f"Counts birds. {returns}"),
        (13, "4 Function Reference"),  # the entry's heading again, set apart
        (11, "Every function here is safe to call from any thread at all."),
    ]
    y = 780.0
    for size, text in lines:
        c.setFont("Helvetica-Bold" if size > 11 else "Helvetica", size)
        c.drawString(72, y, text)
        y -= 34 if size > 11 else 40
    c.save()
    top = "Function reference"
    expected = {
        f"Feeds one pelican. {returns}": (top, "feed pelican"),
        f"Counts birds. {returns}": (top, "count flock"),
        "Every function here is safe to call from any thread at all.": (top,),
    }
    paths = {b.text: b.heading_path for b in parse_file(path).blocks}
    assert {text: paths.get(text) for text in expected} == expected
