"""Table rows → blocks (pure), shared by spreadsheets and CSV/TSV: the first non-empty row
is the header, each later row reads "<column>: <value> · <column>: <value>", and rows are
grouped into blocks of about one indexed chunk, each under the heading path
(sheet, "rows 12–19"), so a citation names the sheet and the row range it quotes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence

from citewise.ingest.parsers._common import clean, render_row
from citewise.types import Block

CELL_SEPARATOR = " · "
# about one child chunk (~200 word pieces): the section's row range is then the chunk's
DEFAULT_BLOCK_CHARS = 700
MAX_CELL_CHARS = 2000  # one cell's text; a sheet pasted into one cell must not make one row
Cell = object


def cell_text(value: Cell) -> str:
    """A cell as a reader sees it: whole floats without '.0', dates without midnight."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return clean(str(value))[:MAX_CELL_CHARS]


def row_line(header: Sequence[str], row: Sequence[str]) -> str:
    """'Region: North · Amount: 120'; empty cells left out, unlabelled cells stand alone."""
    return render_row(header, row, CELL_SEPARATOR)


def row_label(first: int, last: int) -> str:
    return f"row {first}" if first == last else f"rows {first}–{last}"


def row_blocks(
    rows: Iterable[Sequence[Cell]],
    sheet: str = "",
    *,
    block_chars: int = DEFAULT_BLOCK_CHARS,
    first_row: int = 1,
) -> Iterator[Block]:
    """Blocks of one sheet, read lazily: `rows` are its rows in order (row `first_row`
    first). A sheet of a single row (or none with a header) yields that row as text."""
    header: list[str] | None = None
    header_line = ""
    lines: list[str] = []
    size = 0
    start = last = 0
    number = first_row - 1
    for raw in rows:
        number += 1
        if not raw:
            continue
        cells = [cell_text(c) for c in raw]
        if not any(cells):
            continue
        if header is None:
            header = cells
            header_line = " | ".join(c for c in cells if c)
            start = number
            continue
        line = row_line(header, cells)
        if lines and size + len(line) > block_chars:
            yield _block(sheet, start, last, lines, header_line)
            lines, size = [], 0
        if not lines:
            start = number
        lines.append(line)
        size += len(line) + 1
        last = number
    if lines:
        yield _block(sheet, start, last, lines, header_line)
    elif header is not None:  # only a header row: it is the content
        path = (sheet, row_label(start, start)) if sheet else (row_label(start, start),)
        yield Block(header_line, path, None, "text")


def _block(sheet: str, first: int, last: int, lines: list[str], header: str) -> Block:
    label = row_label(first, last)
    path = (sheet, label) if sheet else (label,)
    return Block("\n".join(lines), path, None, "table", header=header)
