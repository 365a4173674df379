"""Line rectangles of each chunk of a PDF, from pypdfium2's character boxes: at ingest, so
citations can mark the cited lines on the page (see `citewise.types.positions`).

A chunk's text is found on its pages by its letters and digits in order (the parser
re-joins hyphenated words, drops running headers and normalizes spaces): windows of the
chunk are looked up one after another from where the previous one ended, so one dropped
header or footer costs a window, not the chunk.

Positions are best-effort: a page pdfium cannot read, or any other failure to place a
chunk's boxes, leaves that chunk without boxes (its citation opens the page unmarked) and
is logged once per document; the document and its text are kept.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from citewise.types import Child
from citewise.types.positions import LineBox, alnum_index

log = logging.getLogger(__name__)
WINDOW = 24  # letters and digits per lookup: long enough to be unique on a page
# pdfium keeps what it parsed for a document (fonts, resources) until it is closed: reopened
# after this many pages, so a long PDF's peak memory does not grow with its length
PAGES_PER_OPEN = 100
# pdfium ends a line hyphenated across a break with U+FFFE (or 0x02) instead of a newline
_LINE_BREAK = re.compile("\r\n|\r|\n|\ufffe|\x02")
# a table row names each value's column ('Net sales | 2020: $519,926'): the page has the
# name above the column, not before the value, so it is left out of the lookup
_COLUMN_NAME = re.compile(r"(?<= \| )[^|\n]{1,120}?: (?=\S)")


@dataclass(slots=True)
class _Page:
    number: int
    page: Any
    textpage: Any
    alnum: str
    offsets: list[int]  # text index of each alnum char
    lines: list[tuple[int, int]]  # text index ranges of the page's lines


def chunk_line_boxes(
    path: Path, children: Sequence[Child], on_page: Callable[[int, int], None] | None = None
) -> list[tuple[LineBox, ...]]:
    """For each child, its lines' rectangles (empty when its text is not found or its
    boxes cannot be placed); never raises. `on_page(page, pages)` as each child's first page
    is reached (ingest progress)."""
    try:
        pdf = pdfium.PdfDocument(str(path))
    except Exception as exc:  # highlights are optional, the text is not
        log.warning("%s: no highlight positions (%s)", path, exc)
        return [() for _ in children]
    pages: dict[int, _Page] = {}
    warned = False
    read = 0  # pages read since the document was opened
    out: list[tuple[LineBox, ...]] = []
    try:
        for child in children:
            _close_before(pages, child.page_start)
            if read >= PAGES_PER_OPEN:
                _close_before(pages, None)
                pdf.close()
                pdf = None
                try:
                    pdf = pdfium.PdfDocument(str(path))
                except Exception as exc:  # the file went away meanwhile: no more marks
                    log.warning("%s: no highlight positions after page %s (%s)",
                                path, child.page_start, exc)  # fmt: skip
                    return [*out, *(() for _ in children[len(out) :])]
                read = 0
            before = len(pages)
            if on_page is not None and child.page_start is not None:
                on_page(child.page_start, len(pdf))
            try:
                out.append(_boxes(pdf, pages, child))
            except Exception as exc:  # one chunk's failure costs its marks only
                out.append(())
                if not warned:
                    warned = True
                    log.warning("%s page %s: some passages get no highlight positions (%s: %s)",
                                path, child.page_start, type(exc).__name__, exc)  # fmt: skip
            read += max(0, len(pages) - before)
        return out
    finally:
        _close_before(pages, None)
        if pdf is not None:
            pdf.close()


def _close_before(pages: dict[int, _Page], first: int | None) -> None:
    """Closes the pages before `first` (all with None): chunks come in page order, so only
    the pages of the current chunk stay open; a page needed again is simply re-read."""
    for number in [n for n in pages if first is None or n < first]:
        page = pages.pop(number)
        page.textpage.close()
        page.page.close()


def _page(pdf: Any, pages: dict[int, _Page], number: int) -> _Page | None:
    if number not in pages:
        if not 1 <= number <= len(pdf):
            return None
        page = pdf[number - 1]
        textpage = page.get_textpage()
        pages[number] = _Page(number, page, textpage, "", [], [])  # closed with the others
        text: str = textpage.get_text_range()
        alnum, offsets = alnum_index(text)
        lines, start = [], 0
        for match in (*_LINE_BREAK.finditer(text), None):
            end = match.start() if match else len(text)
            if end > start:
                lines.append((start, end))
            start = match.end() if match else len(text)
        pages[number] = _Page(number, page, textpage, alnum, offsets, lines)
    return pages[number]


def _boxes(pdf: Any, pages: dict[int, _Page], child: Child) -> tuple[LineBox, ...]:
    if child.page_start is None:
        return ()
    last = child.page_end or child.page_start
    found = [p for n in range(child.page_start, last + 1) if (p := _page(pdf, pages, n))]
    chunk, chunk_offsets = page_order_index(child.text)
    boxes: list[LineBox] = []
    at = 0  # next alnum char of the chunk to find
    for k, page in enumerate(found):
        following = found[k + 1] if k + 1 < len(found) else None
        matched: dict[int, int] = {}  # page text index -> chunk text offset
        cursor = 0
        while at < len(chunk):
            window = chunk[at : at + WINDOW]
            hit = page.alnum.find(window, cursor)
            if hit < 0:
                on_next = following is not None and following.alnum.find(window) >= 0
                if len(window) < WINDOW // 2 or on_next or not _tail_later(page, chunk, at, cursor):
                    break  # the rest of the chunk is on the next page
                at += WINDOW
                continue
            run = 0
            while (at + run < len(chunk) and hit + run < len(page.alnum)
                   and chunk[at + run] == page.alnum[hit + run]):  # fmt: skip
                matched[page.offsets[hit + run]] = chunk_offsets[at + run]
                run += 1
            at += run
            cursor = hit + run
        boxes.extend(_line_boxes(page, matched))
    return tuple(boxes)


def page_order_index(text: str) -> tuple[str, list[int]]:
    """`alnum_index` of a chunk without the column names its table rows repeat."""
    chars, offsets = alnum_index(text)
    names = [m.span() for m in _COLUMN_NAME.finditer(text)]
    if not names:
        return chars, offsets
    skipped = {i for start, end in names for i in range(start, end)}
    kept = [k for k, offset in enumerate(offsets) if offset not in skipped]
    return "".join(chars[k] for k in kept), [offsets[k] for k in kept]


def _tail_later(page: _Page, chunk: str, at: int, cursor: int) -> bool:
    """Whether some later window of the chunk is still on this page after `cursor` (the
    missing window was text the parser dropped or changed, not the page's end). Before the
    cursor does not count: words the chunk repeats from earlier on the page would make the
    rest of the chunk be looked for here, and its next page would get no marks."""
    for later in range(at + WINDOW, len(chunk), WINDOW):
        if page.alnum.find(chunk[later : later + WINDOW], cursor) >= 0:
            return True
    return False


def _line_boxes(page: _Page, matched: dict[int, int]) -> list[LineBox]:
    if not matched:
        return []
    out: list[LineBox] = []
    indices = sorted(matched)
    i = 0
    for start, end in page.lines:
        on_line = []
        while i < len(indices) and indices[i] < end:
            if indices[i] >= start:
                on_line.append(indices[i])
            i += 1
        if on_line:
            rect = _rect(page.textpage, on_line[0], on_line[-1])
            if rect is not None:
                x0, y0, x1, y1 = rect
                first, last = matched[on_line[0]], matched[on_line[-1]]
                out.append(LineBox(page.number, x0, y0, x1, y1, first, last + 1))
    return out


def _rect(
    textpage: Any, first_text: int, last_text: int
) -> tuple[float, float, float, float] | None:
    """The union of pdfium's rectangles over a line's characters (text indices)."""
    first = pdfium_c.FPDFText_GetCharIndexFromTextIndex(textpage.raw, first_text)
    last = pdfium_c.FPDFText_GetCharIndexFromTextIndex(textpage.raw, last_text)
    if first < 0 or last < first:
        return None
    rects = [textpage.get_rect(i) for i in range(textpage.count_rects(first, last - first + 1))]
    if not rects:
        return None
    left, bottom, right, top = zip(*rects, strict=True)
    return (min(left), min(bottom), max(right), max(top))
