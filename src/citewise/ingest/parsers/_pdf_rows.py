"""A PDF page's lines as visual rows of cells: words on one baseline, split into cells at
gaps much wider than a space, the trailing cells that are figures counted. The input is
what pdfium gives (lines with their words' horizontal extents, PDF units); nothing here
touches pdfium."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citewise.ingest.parsers._common import clean
from citewise.ingest.parsers._pdf_layout import Line, Word

CELL_GAP = 0.9  # a gap this many line heights wide separates two cells
FIGURE_GAP = 0.5  # narrower between two figures: dense tables set their columns close
_FIGURE = re.compile(
    r"[$€£¥]?\s?[(\[]?[-–—+]?[$€£¥]?\s?[-–—+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)\s?[%x]?[)\]]?%?\*?"
    r"|[$€£¥]?\s?[-–—]+|n/?a|nm",
    re.I,
)
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff\ufffe\x02]")
_EQUATION_NUMBER = re.compile(r"\(\d+(?:\.\d+)*[a-z]?\)")
_RELATION = re.compile(r"[=<>≤≥→∈≠≈]")
_YEAR = re.compile(r"(?:19|20)\d\d")
CURRENCY = frozenset("$€£¥")


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    left: float
    right: float


@dataclass(frozen=True, slots=True)
class Row:
    lines: tuple[Line, ...]
    cells: tuple[Cell, ...]
    figures: int  # how many of the trailing cells are figures
    height: float

    @property
    def label(self) -> str:
        return " ".join(c.text for c in self.cells[: len(self.cells) - self.figures])

    @property
    def values(self) -> tuple[Cell, ...]:
        return self.cells[len(self.cells) - self.figures :]

    @property
    def right(self) -> float:
        return max(c.right for c in self.cells)


def visual_rows(lines: Sequence[Line]) -> list[Row]:
    """Consecutive lines on one baseline form one visual row."""
    groups: list[list[Line]] = []
    for ln in (part for line in lines for part in _by_baseline(line)):
        height = max(ln.top - ln.bottom, 1.0)
        if groups and abs(groups[-1][-1].bottom - ln.bottom) < 0.4 * height:
            groups[-1].append(ln)
        else:
            groups.append([ln])
    return [_row(group) for group in groups]


def _by_baseline(line: Line) -> list[Line]:
    """A line as pdfium reads it may join text set on two baselines (a column header
    'As of December 31,' above '2017  2016'): one line per baseline, top first."""
    height = max(line.top - line.bottom, 1.0)
    bottoms = [w.bottom for w in line.words if w.bottom is not None]
    if not bottoms or max(bottoms) - min(bottoms) < 0.5 * height:
        return [line]
    groups: list[list[Word]] = []
    for word in sorted(line.words, key=lambda w: -(w.bottom or line.bottom)):
        bottom = word.bottom if word.bottom is not None else line.bottom
        last = groups[-1][0].bottom if groups else None
        if last is not None and abs(last - bottom) < 0.5 * height:
            groups[-1].append(word)
        else:
            groups.append([word])
    out = []
    for group in groups:
        group.sort(key=lambda w: w.left)
        bottom = group[0].bottom if group[0].bottom is not None else line.bottom
        text = " ".join(w.text for w in group)
        left, right = group[0].left, group[-1].right
        part = replace(line, text=text, top=bottom + height, bottom=bottom, left=left, right=right)
        out.append(replace(part, words=tuple(group)))
    return out


def _row(group: Sequence[Line]) -> Row:
    height = max(max(ln.top - ln.bottom for ln in group), 1.0)
    # a line read without word boxes (prose) counts as one word spanning the line
    words = sorted(
        (w for ln in group for w in (ln.words or (Word(clean(ln.text), ln.left, ln.right),))),
        key=lambda w: w.left,
    )
    cells = _cells(words, height)
    figures = 0
    for cell in reversed(cells):
        if not _FIGURE.fullmatch(cell.text):
            break
        figures += 1
    if figures == len(cells) == 1:
        figures = 0  # a lone number on a line is a page number or a note, not a row
    return Row(tuple(group), tuple(cells), figures, height)


def _cells(words: Sequence[Word], height: float) -> list[Cell]:
    """Words joined into cells at gaps wider than CELL_GAP line heights; a lone currency
    sign belongs to the figure after it."""
    cells: list[Cell] = []
    glued = False
    for w in words:
        text = _INVISIBLE.sub("", w.text)  # a word is already free of spaces
        if not text:
            continue
        gap = CELL_GAP
        if cells and _FIGURE.fullmatch(text) and _FIGURE.fullmatch(cells[-1].text.split()[-1]):
            gap = FIGURE_GAP
        near = bool(cells) and w.left - cells[-1].right < gap * height
        if cells and (glued or (near and text not in CURRENCY)):
            last = cells[-1]
            joiner = "" if glued else " "
            cells[-1] = Cell(f"{last.text}{joiner}{text}", last.left, max(last.right, w.right))
        else:
            cells.append(Cell(text, w.left, w.right))
        glued = text in CURRENCY
    return cells


def is_figure_row(row: Row) -> bool:
    """Figures after a label (or a row of figures alone); a row of bare years is a header,
    code keeps its own layout and an equation's number '(2.8)' is not a figure."""
    if not row.figures or any(ln.mono for ln in row.lines):
        return False
    values = row.values
    if all(_YEAR.fullmatch(v.text) for v in values):
        return False
    equation = _RELATION.search(row.label) and _EQUATION_NUMBER.fullmatch(values[-1].text)
    return not (len(values) == 1 and equation)
