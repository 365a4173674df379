"""Small pure helpers shared by the format parsers: whitespace, tables, heading paths."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePath

from citewise.errors import NoTextError
from citewise.types import Block, BlockKind, OcrPage, ParsedDocument

_WS = re.compile(r"\s+")
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff\ufffe]")
_LINE_WS = re.compile(r"[ \t\f\v\u00a0]+$", re.MULTILINE)


def clean(text: str) -> str:
    """One paragraph's text: invisible characters removed, whitespace runs collapsed."""
    return _WS.sub(" ", _INVISIBLE.sub("", text)).strip()


def clean_code(text: str) -> str:
    """Code keeps its line breaks and indentation; trailing spaces and blank edges go."""
    text = _INVISIBLE.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    text = _LINE_WS.sub("", text.expandtabs(4))
    return text.strip("\n")


def stem(name: str) -> str:
    """The file name without its directory and extension (the fallback title)."""
    path = PurePath(name)
    return path.stem or path.name or name


def render_row(header: Sequence[str], row: Sequence[str], sep: str = "; ") -> str:
    """'Header1: v1; Header2: v2' — empty cells are left out, unlabelled cells stand alone."""
    parts: list[str] = []
    for i, value in enumerate(row):
        if not value:
            continue
        label = header[i] if i < len(header) else ""
        parts.append(f"{label}: {value}" if label and label != value else value)
    return sep.join(parts)


def table_block(
    rows: Iterable[Sequence[str]],
    heading_path: tuple[str, ...],
    page: int | None = None,
    *,
    has_header: bool = True,
) -> Block | None:
    """A table block: the first non-empty row is the header, each data row one line.
    Without a header, each row's cells are joined with ' | '."""
    cleaned = [[clean(c) for c in row] for row in rows]
    cleaned = [row for row in cleaned if any(row)]
    if not cleaned:
        return None
    if not has_header:
        text = "\n".join(" | ".join(c for c in row if c) for row in cleaned)
        return Block(text, heading_path, page, "table")
    header = cleaned[0]
    header_line = " | ".join(header)
    lines = [render_row(header, row) for row in cleaned[1:]]
    lines = [line for line in lines if line]
    if not lines:  # a one-row table: its only row is the content
        return Block(header_line, heading_path, page, "table", header=header_line)
    return Block("\n".join(lines), heading_path, page, "table", header=header_line)


def list_block(
    items: Iterable[tuple[int, str]],
    heading_path: tuple[str, ...],
    page: int | None = None,
    markers: Sequence[str] = (),
) -> Block | None:
    """A list block: one '- item' line per (depth, text) item, nested items indented.
    `markers` (per item, e.g. '1.') replace the dash for ordered lists."""
    lines = [
        f"{'  ' * depth}{markers[i] if i < len(markers) else '-'} {text}"
        for i, (depth, text) in enumerate(items)
        if text
    ]
    if not lines:
        return None
    return Block("\n".join(lines), heading_path, page, "list")


def text_block(
    text: str, heading_path: tuple[str, ...], page: int | None = None, kind: BlockKind = "text"
) -> Block | None:
    body = clean_code(text) if kind == "code" else clean(text)
    return Block(body, heading_path, page, kind) if body else None


class HeadingStack:
    """Tracks the open headings; a heading closes every heading at its level or deeper."""

    def __init__(self) -> None:
        self._items: list[tuple[int, str]] = []

    def push(self, level: int, text: str) -> None:
        while self._items and self._items[-1][0] >= level:
            self._items.pop()
        self._items.append((level, text))

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(text for _, text in self._items)


def finish(
    *,
    title: str,
    blocks: Iterable[Block | None],
    fmt: str,
    no_text: str,
    page_count: int | None = None,
    metadata: Mapping[str, str] | None = None,
    ocr: Sequence[OcrPage] = (),
) -> ParsedDocument:
    """The ParsedDocument, or NoTextError(`no_text`) when no block carries any text."""
    kept = tuple(b for b in blocks if b is not None and b.text.strip())
    if not kept:
        raise NoTextError(no_text)
    return ParsedDocument(
        title=clean(title),
        blocks=kept,
        format=fmt,
        page_count=page_count,
        metadata=dict(metadata or {}),
        ocr=tuple(ocr),
    )
