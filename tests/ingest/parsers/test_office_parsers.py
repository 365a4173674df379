"""DOCX and PPTX parsing on files built with python-docx / python-pptx at run time."""

from __future__ import annotations

from pathlib import Path

import docx
import pptx
import pytest
from pptx.util import Inches

from citewise.errors import CorruptDocumentError, NoTextError
from citewise.ingest.parsers import parse_file
from citewise.types import Block

SPECIES = [("Species", "Wingspan"), ("Brown pelican", "2.3 m"), ("Dalmatian pelican", "3.5 m")]


def _field_guide(path: Path) -> Path:
    d = docx.Document()
    d.core_properties.title = "Pelican Field Guide"
    d.core_properties.keywords = "birds; coast"
    d.add_paragraph("Guide to Pelicans", style="Title")
    d.add_heading("Pelicans", level=1)
    d.add_paragraph("Pelicans are   large\nwater birds.")
    d.add_heading("Feeding", level=2)
    d.add_paragraph("They eat fish.")
    d.add_paragraph("Scoop fish", style="List Bullet")
    d.add_paragraph("Drain water", style="List Bullet")
    d.add_paragraph("Swallow whole", style="List Bullet 2")
    table = d.add_table(rows=3, cols=2)
    for r, row in enumerate(SPECIES):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    d.add_paragraph("After the table.")
    d.add_heading("Habitat", level=1)
    d.add_paragraph("Coasts and lakes.")
    d.save(str(path))
    return path


def _by_text(blocks: tuple[Block, ...]) -> dict[str, Block]:
    return {b.text: b for b in blocks}


def test_docx_headings_build_nested_paths(tmp_path: Path) -> None:
    doc = parse_file(_field_guide(tmp_path / "guide.docx"))
    blocks = _by_text(doc.blocks)
    title = "Guide to Pelicans"
    assert blocks["Pelicans are large water birds."].heading_path == (title, "Pelicans")
    assert blocks["They eat fish."].heading_path == (title, "Pelicans", "Feeding")
    assert blocks["Coasts and lakes."].heading_path == (title, "Habitat")
    assert doc.format == "docx" and doc.page_count is None
    assert all(b.page is None for b in doc.blocks)


def test_docx_table_rows_keep_header(tmp_path: Path) -> None:
    doc = parse_file(_field_guide(tmp_path / "guide.docx"))
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert len(tables) == 1
    assert tables[0].header == "Species | Wingspan"
    assert tables[0].text == (
        "Species: Brown pelican; Wingspan: 2.3 m\nSpecies: Dalmatian pelican; Wingspan: 3.5 m"
    )
    assert tables[0].heading_path == ("Guide to Pelicans", "Pelicans", "Feeding")


def test_docx_list_items_merge_and_body_order_is_kept(tmp_path: Path) -> None:
    doc = parse_file(_field_guide(tmp_path / "guide.docx"))
    kinds = [(b.kind, b.text.split("\n")[0]) for b in doc.blocks]
    assert kinds == [
        ("text", "Pelicans are large water birds."),
        ("text", "They eat fish."),
        ("list", "- Scoop fish"),
        ("table", "Species: Brown pelican; Wingspan: 2.3 m"),
        ("text", "After the table."),
        ("text", "Coasts and lakes."),
    ]
    lists = [b for b in doc.blocks if b.kind == "list"]
    assert lists[0].text == "- Scoop fish\n- Drain water\n  - Swallow whole"


def test_docx_metadata_title_and_tags(tmp_path: Path) -> None:
    doc = parse_file(_field_guide(tmp_path / "guide.docx"))
    assert doc.title == "Pelican Field Guide"
    assert doc.metadata["tags"] == "birds, coast"


def test_docx_without_text_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "images.docx"
    d = docx.Document()
    d.add_paragraph("   ")
    d.save(str(path))
    with pytest.raises(NoTextError, match=r"DOCX contains no text \(only images\?\)"):
        parse_file(path)


def test_docx_with_broken_parts_is_corrupt(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "broken.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("word/document.xml", "<w:document this is not xml")
    with pytest.raises(CorruptDocumentError, match="DOCX"):
        parse_file(path)


def _deck(path: Path) -> Path:
    p = pptx.Presentation()
    first = p.slides.add_slide(p.slide_layouts[1])
    first.shapes.title.text = "Why pelicans"
    body = first.placeholders[1].text_frame
    body.text = "They fly far"
    for text, level in (("They dive", 0), ("Deep dives", 1)):
        para = body.add_paragraph()
        para.text, para.level = text, level
    first.notes_slide.notes_text_frame.text = "Mention the pouch."
    second = p.slides.add_slide(p.slide_layouts[5])
    second.shapes.title.text = "Counts"
    box = second.shapes.add_textbox(Inches(1), Inches(5), Inches(5), Inches(1))
    box.text_frame.text = "Counted in 2024."
    shape = second.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(6), Inches(2))
    for r, row in enumerate([("Species", "Count"), ("Brown", "120"), ("White", "80")]):
        for c, value in enumerate(row):
            shape.table.cell(r, c).text = value
    p.slides.add_slide(p.slide_layouts[0]).shapes.title.text = "Questions?"
    p.save(str(path))
    return path


def test_pptx_slides_are_pages_with_the_title_as_path(tmp_path: Path) -> None:
    doc = parse_file(_deck(tmp_path / "deck.pptx"))
    assert doc.format == "pptx" and doc.page_count == 3
    assert doc.title == "Why pelicans"
    first = doc.blocks[0]
    assert (first.page, first.heading_path, first.kind) == (1, ("Why pelicans",), "list")
    assert first.text == "- They fly far\n- They dive\n  - Deep dives"
    assert doc.blocks[-1] == Block("Questions?", ("Questions?",), 3, "text")


def test_pptx_notes_and_tables_in_reading_order(tmp_path: Path) -> None:
    doc = parse_file(_deck(tmp_path / "deck.pptx"))
    notes = [b for b in doc.blocks if b.heading_path[-1:] == ("Notes",)]
    assert notes == [Block("Mention the pouch.", ("Why pelicans", "Notes"), 1, "text")]
    on_second = [(b.kind, b.text) for b in doc.blocks if b.page == 2]
    # the table sits above the text box on the slide, so it is read first
    assert on_second == [
        ("table", "Species: Brown; Count: 120\nSpecies: White; Count: 80"),
        ("text", "Counted in 2024."),
    ]
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.header == "Species | Count" and table.heading_path == ("Counts",)
