"""Tables on a PDF page read as rows: a row's label with each value and its column header,
'Purchases of PP&E | 2018: (1,577) | 2017: (1,373)', so a figure and what it measures sit
in one line that search can find and a citation can quote.

The input is a page's lines with their words' horizontal extents (PDF units). A table is a
run of rows whose trailing cells are figures standing in columns (cells are words split
by a gap much wider than a space); the rows just above its first figures whose cells
stand over those columns are its column headers. Nothing here touches pdfium.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citewise.ingest.parsers._pdf_layout import Line
from citewise.ingest.parsers._pdf_rows import CURRENCY, Cell, Row, is_figure_row, visual_rows

MIN_FIGURE_ROWS = 3
MAX_LABEL_RUN = 6  # label-only rows (section labels, wrapped labels) a table may hold in a row
MAX_HEADER_ROWS = 4
HEADER_CHARS = 60  # a longer cell above a table is prose, not a column header
_NUMBER = re.compile(r"[(\[]?[-–—$€£¥]*\d[\d,.]*[)\]]?%?")


@dataclass(frozen=True, slots=True)
class Table:
    """One table region of a page: its rows as text lines and its header line."""

    lines: tuple[Line, ...]  # the page lines it replaces, in page order
    rows: tuple[str, ...]
    header: str


def looks_tabular(texts: Sequence[str]) -> bool:
    """Cheap test on a page's line texts: several lines end in two or more figures."""
    return sum(1 for t in texts if _ends_in_figures(t)) >= MIN_FIGURE_ROWS


def _ends_in_figures(text: str) -> bool:
    tail = [w for w in text[-80:].split() if w not in CURRENCY][-2:]
    return len(tail) == 2 and all(_NUMBER.fullmatch(w) for w in tail)


def split_tables(lines: Sequence[Line]) -> list[list[Line] | Table]:
    """The page's lines in order, with each table region replaced by its `Table`; a page
    without a table comes back as one run of lines."""
    rows = visual_rows(lines)
    regions = _regions(rows)
    if not regions:
        return [list(lines)] if lines else []
    out: list[list[Line] | Table] = []
    at = 0
    above: _Heads | None = None
    for head, start, end in regions:
        before = [ln for row in rows[at:head] for ln in row.lines]
        if before:
            out.append(before)
        table, above = _table(rows[head:start], rows[start:end], above)
        out.append(table)
        at = end
    after = [ln for row in rows[at:] for ln in row.lines]
    if after:
        out.append(after)
    return out


def _regions(rows: Sequence[Row]) -> list[tuple[int, int, int]]:
    """(header start, first figure row, end) of each table: runs of figure rows with at
    most MAX_LABEL_RUN label-only rows between them that stay left of the figures."""
    out: list[tuple[int, int, int]] = []
    i = 0
    floor = 0  # rows before this belong to an earlier table
    while i < len(rows):
        if not is_figure_row(rows[i]):
            i += 1
            continue
        start, end, figure_rows = i, i + 1, 1
        edge = min(v.left for v in rows[i].values)
        j = i + 1
        while j < len(rows):
            if is_figure_row(rows[j]):
                figure_rows += 1
                edge = min(edge, *(v.left for v in rows[j].values))
                end = j = j + 1
                continue
            run = j
            while run < len(rows) and run - j < MAX_LABEL_RUN and _label_only(rows[run], edge):
                run += 1
            if run < len(rows) and run > j and is_figure_row(rows[run]):
                j = run
                continue
            break
        if figure_rows >= MIN_FIGURE_ROWS:
            columns = _columns(rows[start:end])
            head, body = _headervisual_rows(rows, start, floor, columns)
            out.append((head, body, end))
            floor = end
        i = end
    return out


def _label_only(row: Row, edge: float) -> bool:
    return not row.figures and bool(row.cells) and row.right < edge


def _columns(rows: Sequence[Row]) -> list[tuple[float, float]]:
    """The figure columns: figure cells whose horizontal extents overlap, merged."""
    spans = sorted((v.left, v.right) for r in rows if is_figure_row(r) for v in r.values)
    merged: list[tuple[float, float]] = []
    for left, right in spans:
        if merged and left <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], right))
        else:
            merged.append((left, right))
    return merged


def _over(cell: Cell, column: tuple[float, float], slack: float) -> bool:
    return cell.left - slack <= column[1] and cell.right + slack >= column[0]


def _headervisual_rows(
    rows: Sequence[Row], start: int, floor: int, columns: Sequence[tuple[float, float]]
) -> tuple[int, int]:
    """(first header row, first body row). Going up from the first figure row: label-only
    rows (section labels, part of the body), then the header rows, whose cells stand over
    the figure columns. Without a header row, the table starts at its first figures."""
    head = start
    body = start
    i = start - 1
    headers = 0
    while i >= floor and start - i <= MAX_HEADER_ROWS + MAX_LABEL_RUN:
        row = rows[i]
        slack = row.height
        over = [c for c in row.cells if any(_over(c, col, slack) for col in columns)]
        text = " ".join(c.text for c in row.cells)
        # a header cell stands over the columns; a prose line runs into them from the left
        header_like = (
            bool(over)
            and all(c.left >= columns[0][0] - 2 * slack for c in over)
            and len(text) <= HEADER_CHARS
            and not is_figure_row(row)
        )
        if header_like:
            if not headers:
                body = i + 1
            headers += 1
            head = i
        elif headers or over or row.figures or not row.cells:
            break
        i -= 1
    return head, body


@dataclass(frozen=True, slots=True)
class _Heads:
    """A table's columns and their names, for a table further down the page that
    continues it without a header of its own (a balance sheet's equity section)."""

    columns: tuple[tuple[float, float], ...]
    names: tuple[str, ...]
    header: str


def _table(
    header_rows: Sequence[Row], body: Sequence[Row], above: _Heads | None
) -> tuple[Table, _Heads]:
    columns = _columns(body)
    names = _column_names(header_rows, columns)
    header = " | ".join(c.text for row in header_rows for c in row.cells)
    if not header_rows and above is not None and _continues(columns, above.columns):
        names = [above.names[_nearest_column(col, above.columns)] for col in columns]
        header = above.header
    lines = tuple(ln for row in (*header_rows, *body) for ln in row.lines)
    rows: list[str] = []
    pending = ""  # a label-only row whose label the next row continues
    for row in body:
        if not row.figures:
            label = " ".join(c.text for c in row.cells)
            if pending and _continues_label(label):
                pending = f"{pending} {label}"
                continue
            if pending:
                rows.append(pending)
            pending = label
            continue
        label = row.label
        if pending and (not label or _continues_label(label)):
            label = f"{pending} {label}".strip()
        elif pending:
            rows.append(pending)
        pending = ""
        rows.append(_row_text(label, row.values, columns, names))
    if pending:
        rows.append(pending)
    return Table(lines, tuple(rows), header), _Heads(tuple(columns), tuple(names), header)


def _continues(
    columns: Sequence[tuple[float, float]], earlier: Sequence[tuple[float, float]]
) -> bool:
    """Every column stands under a column of the earlier table."""
    return bool(columns) and all(
        any(c[0] <= e[1] and c[1] >= e[0] for e in earlier) for c in columns
    )


def _nearest_column(column: tuple[float, float], columns: Sequence[tuple[float, float]]) -> int:
    centre = (column[0] + column[1]) / 2
    return min(range(len(columns)), key=lambda k: abs((columns[k][0] + columns[k][1]) / 2 - centre))


def _continues_label(label: str) -> bool:
    """A label that goes on from the row above: it starts in lower case ('(gains) losses')."""
    first = next((c for c in label if c.isalpha()), "")
    return first.islower()


def _column_names(header_rows: Sequence[Row], columns: Sequence[tuple[float, float]]) -> list[str]:
    """Each column's name: the header cells above it alone, top to bottom ('June 30,'
    over '2023'); a cell spanning several columns stays in the header line only."""
    names = [""] * len(columns)
    for row in header_rows:
        over = [c for c in row.cells if any(_over(c, col, row.height * 0.5) for col in columns)]
        if len(over) == 1 and len(columns) > 1:
            continue  # a row's one cell above several columns is their caption ('Fiscal Year')
        for cell in row.cells:
            hit = [k for k, col in enumerate(columns) if _over(cell, col, row.height * 0.5)]
            if len(hit) == 1:
                k = hit[0]
                names[k] = f"{names[k]} {cell.text}".strip()
    return names


def _row_text(
    label: str,
    values: Sequence[Cell],
    columns: Sequence[tuple[float, float]],
    names: Sequence[str],
) -> str:
    parts = [label] if label else []
    for value in values:
        k = _nearest(value, columns)
        name = names[k] if k is not None else ""
        parts.append(f"{name}: {value.text}" if name else value.text)
    return " | ".join(parts)


def _nearest(cell: Cell, columns: Sequence[tuple[float, float]]) -> int | None:
    if not columns:
        return None
    centre = (cell.left + cell.right) / 2
    return min(range(len(columns)), key=lambda k: abs((columns[k][0] + columns[k][1]) / 2 - centre))
