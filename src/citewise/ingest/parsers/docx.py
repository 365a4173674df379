"""DOCX parser (python-docx): body paragraphs and tables in document order, heading styles
drive the heading path, list paragraphs merge into list blocks, tables keep their header."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import docx
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

from citewise.errors import CorruptDocumentError
from citewise.ingest.parsers._common import (
    HeadingStack,
    clean,
    finish,
    list_block,
    stem,
    table_block,
)
from citewise.ingest.parsers.ocr import OcrEngine
from citewise.types import Block, OcrPage, ParsedDocument

NO_TEXT = "DOCX contains no text (only images?)"
NO_TEXT_AFTER_OCR = "DOCX contains no text, and OCR found none in its pictures"
_HEADING = re.compile(r"^heading\s*(\d)$", re.I)
_LIST_STYLE = re.compile(r"^list\b.*?(\d)?$", re.I)


def _style_names(paragraph: Paragraph) -> list[str]:
    """The paragraph's style and the styles it is based on, nearest first."""
    names: list[str] = []
    style: Any = paragraph.style
    while style is not None and len(names) < 5:
        names.append(str(style.name or ""))
        style = style.base_style
    return names


def heading_level(style_names: list[str]) -> int | None:
    """0 for Title, N for 'Heading N' (also when a custom style is based on one)."""
    for name in style_names:
        if name.strip().lower() == "title":
            return 0
        match = _HEADING.match(name.strip())
        if match:
            return int(match.group(1))
    return None


def list_depth(paragraph: Paragraph, style_names: list[str]) -> int | None:
    """The nesting depth (0 = top) of a list paragraph, None if it is not in a list."""
    ppr: Any = paragraph._p.pPr
    numpr: Any = ppr.numPr if ppr is not None else None
    if numpr is not None and numpr.numId is not None and numpr.numId.val != 0:
        ilvl = numpr.ilvl
        return int(ilvl.val) if ilvl is not None else 0
    match = _LIST_STYLE.match(style_names[0].strip()) if style_names else None
    if match:
        return int(match.group(1)) - 1 if match.group(1) else 0
    return None


def table_rows(table: Table) -> list[list[str]]:
    """Cell texts per row; a cell merged across columns is read once."""
    rows: list[list[str]] = []
    for row in table.rows:
        cells: list[str] = []
        last: Any = None
        for cell in row.cells:
            if cell._tc is last:
                continue
            last = cell._tc
            cells.append("\n".join(paragraph_text(p) for p in cell.paragraphs))
        rows.append(cells)
    return rows


_TEXT_TAGS = {qn("w:t"): "", qn("w:tab"): "\t", qn("w:br"): "\n", qn("w:cr"): "\n"}
_RUN = qn("w:r")
_TEXT_BOX = qn("w:txbxContent")


def paragraph_text(paragraph: Paragraph) -> str:
    """The paragraph's text, tracked insertions (`w:ins`, `w:moveTo`) included: python-docx's
    `text` reads only direct runs and links, so a document saved with unaccepted changes lost
    them (deleted text is `w:delText`, never read). Text boxes anchored in it stay out."""
    p = paragraph._p
    parts: list[str] = []
    for el in p.iter(*_TEXT_TAGS):
        if el.getparent().tag != _RUN:  # a tab stop of the paragraph's properties
            continue
        if any(a is not p and a.tag == _TEXT_BOX for a in el.iterancestors()):
            continue
        parts.append((el.text or "") if el.tag == qn("w:t") else _TEXT_TAGS[el.tag])
    return "".join(parts)


def _open(data: bytes) -> Any:
    try:
        return docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises a zoo of types for broken packages
        raise CorruptDocumentError(f"the DOCX cannot be read; it looks damaged ({exc})") from exc


def _blocks(document: Any) -> Iterator[Block | None]:
    stack = HeadingStack()
    items: list[tuple[int, str]] = []
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            text = clean(paragraph_text(item))
            if not text:
                continue
            names = _style_names(item)
            level = heading_level(names)
            depth = list_depth(item, names) if level is None else None
            if depth is not None:
                items.append((depth, text))
                continue
            yield list_block(items, stack.path)
            items = []
            if level is not None:
                stack.push(level, text)
            else:
                yield Block(text, stack.path)
        elif isinstance(item, Table):
            yield list_block(items, stack.path)
            items = []
            yield table_block(table_rows(item), stack.path)
    yield list_block(items, stack.path)


def _metadata(props: Any) -> dict[str, str]:
    pairs = {
        "author": props.author,
        "category": props.category,
        "subject": props.subject,
        "tags": ", ".join(t.strip() for t in re.split(r"[;,]", props.keywords or "") if t.strip()),
    }
    return {k: clean(str(v)) for k, v in pairs.items() if v and clean(str(v))}


def image_blobs(document: Any) -> Iterator[bytes]:
    """The bytes of the pictures in the body, in document order."""
    related = document.part.related_parts
    for blip in document.element.body.iter(qn("a:blip")):
        part = related.get(blip.get(qn("r:embed")))
        if part is not None:
            yield part.blob


def _ocr_blocks(document: Any, ocr: str) -> tuple[list[Block], list[OcrPage]]:
    """A DOCX made of pictures (scans pasted into Word): each picture read by OCR."""
    from citewise.ingest.parsers.image import engine_or_refuse, open_image, read_image

    if ocr == "none":
        return [], []
    blocks: list[Block] = []
    pages: list[OcrPage] = []
    engine: OcrEngine | None = None
    for blob in image_blobs(document):
        engine = engine or engine_or_refuse(ocr, "a DOCX made of pictures")
        try:
            image = open_image(blob)
        except CorruptDocumentError:
            continue  # a picture format OCR cannot read (EMF, SVG): other pictures may do
        found, record = read_image(image, engine, None)
        blocks.extend(found)
        pages.append(record)
    return blocks, pages


def parse_docx(data: bytes, name: str, ocr: str = "none") -> ParsedDocument:
    document = _open(data)
    try:
        blocks = [b for b in _blocks(document) if b is not None]
    except Exception as exc:
        raise CorruptDocumentError(f"the DOCX body cannot be read ({exc})") from exc
    scanned: list[OcrPage] = []
    if not blocks:
        blocks, scanned = _ocr_blocks(document, ocr)
    props = document.core_properties
    firsts = [b.heading_path[0] for b in blocks if b.heading_path]
    title = clean(props.title or "") or (firsts[0] if firsts else stem(name))
    no_text = NO_TEXT_AFTER_OCR if scanned else NO_TEXT
    if ocr == "none":
        no_text += "; OCR is off (set CITEWISE_OCR=tesseract or rapidocr)"
    return finish(
        title=title,
        blocks=blocks,
        fmt="docx",
        no_text=no_text,
        metadata=_metadata(props),
        ocr=scanned,
    )
