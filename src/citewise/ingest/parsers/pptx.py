"""PPTX parser (python-pptx): one page per slide, the slide title as heading path, text
frames and tables in reading order (top to bottom, left to right), speaker notes last."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from typing import Any

import pptx
from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER

from citewise.errors import CorruptDocumentError
from citewise.ingest.parsers._common import clean, finish, list_block, stem, table_block
from citewise.types import Block, ParsedDocument

NO_TEXT = "PPTX contains no text (only images?)"
_TITLE_TYPES = frozenset({PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE})
_BULLETED_TYPES = frozenset({PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT})


def _placeholder_type(shape: Any) -> Any:
    if not shape.is_placeholder:
        return None
    try:
        return shape.placeholder_format.type
    except ValueError:  # a placeholder without a type
        return None


def _is_title(shape: Any) -> bool:
    return _placeholder_type(shape) in _TITLE_TYPES


def _position(shape: Any) -> tuple[int, int]:
    return (shape.top or 0, shape.left or 0)


def _flatten(shapes: Iterable[Any]) -> Iterator[Any]:
    """Shapes in reading order; groups are opened in place."""
    for shape in sorted(shapes, key=_position):
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from _flatten(shape.shapes)
        else:
            yield shape


def frame_block(
    frame: Any, path: tuple[str, ...], page: int, *, bulleted: bool = False
) -> Block | None:
    """A text frame: several bulleted paragraphs (a body placeholder, explicit bullets or
    indent levels) become a list block, otherwise one text block, one line per paragraph."""
    paras = [(int(p.level or 0), clean(p.text)) for p in frame.paragraphs]
    paras = [(level, text) for level, text in paras if text]
    if not paras:
        return None
    if len(paras) > 1 and (bulleted or any(_has_bullet(p) for p in frame.paragraphs)):
        return list_block(paras, path, page)
    return Block("\n".join(text for _, text in paras), path, page, "text")


def _has_bullet(paragraph: Any) -> bool:
    ppr = paragraph._p.pPr
    if ppr is None:
        return bool(paragraph.level > 0)
    tags = {child.tag.rsplit("}", 1)[-1] for child in ppr}
    return bool(tags & {"buChar", "buAutoNum"}) or bool(paragraph.level > 0)


def _table_rows(table: Any) -> list[list[str]]:
    return [[cell.text for cell in row.cells] for row in table.rows]


def slide_blocks(slide: Any, number: int) -> tuple[str, list[Block]]:
    """The slide's title and its blocks; every block carries the slide number as page."""
    shapes = list(_flatten(slide.shapes))
    titles = [clean(s.text_frame.text) for s in shapes if _is_title(s) and s.has_text_frame]
    title = next((t for t in titles if t), "")
    path = (title,) if title else ()
    blocks: list[Block | None] = []
    for shape in shapes:
        if _is_title(shape):
            continue
        if getattr(shape, "has_table", False) and shape.has_table:
            blocks.append(table_block(_table_rows(shape.table), path, number))
        elif shape.has_text_frame:
            bulleted = _placeholder_type(shape) in _BULLETED_TYPES
            blocks.append(frame_block(shape.text_frame, path, number, bulleted=bulleted))
    if title and not any(blocks):  # a section divider: the title is the slide's text
        blocks.append(Block(title, path, number, "text"))
    if slide.has_notes_slide:
        notes = slide.notes_slide.notes_text_frame
        if notes is not None and clean(notes.text):
            note_path = (*path, "Notes") if path else ("Notes",)
            blocks.append(Block(clean(notes.text), note_path, number, "text"))
    return title, [b for b in blocks if b is not None]


def _open(data: bytes) -> Any:
    try:
        return pptx.Presentation(io.BytesIO(data))
    except Exception as exc:  # python-pptx raises many types for broken packages
        raise CorruptDocumentError(f"the PPTX cannot be read; it looks damaged ({exc})") from exc


def parse_pptx(data: bytes, name: str) -> ParsedDocument:
    presentation = _open(data)
    blocks: list[Block] = []
    first_title = ""
    try:
        for number, slide in enumerate(presentation.slides, start=1):
            title, slide_blocks_ = slide_blocks(slide, number)
            first_title = first_title or title
            blocks.extend(slide_blocks_)
        slide_count = len(presentation.slides)
    except Exception as exc:
        raise CorruptDocumentError(f"the PPTX slides cannot be read ({exc})") from exc
    props = presentation.core_properties
    metadata = {
        k: clean(str(v))
        for k, v in {"author": props.author, "category": props.category}.items()
        if v and clean(str(v))
    }
    return finish(
        title=clean(props.title or "") or first_title or stem(name),
        blocks=blocks,
        fmt="pptx",
        no_text=NO_TEXT,
        page_count=slide_count,
        metadata=metadata,
    )
