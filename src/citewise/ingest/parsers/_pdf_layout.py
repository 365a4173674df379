"""Pure layout rules for PDF text: running headers/footers, paragraphs, heading guesses.

The input is what pdfium gives per physical page: text lines with their loose boxes (PDF
units, y grows upwards) and font size. Nothing here touches pdfium, so it is tested with
plain values.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

from citewise.ingest.parsers._common import clean


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    left: float
    right: float
    bottom: float | None = None  # its first letter's, when it may differ from its line's


@dataclass(frozen=True, slots=True)
class Line:
    text: str
    top: float
    bottom: float
    left: float
    right: float
    size: float
    bold: bool = False
    mono: bool = False  # set in a fixed-pitch font: code
    words: tuple[Word, ...] = ()  # read only on pages that look like they hold tables


@dataclass(frozen=True, slots=True)
class Paragraph:
    text: str
    lines: int
    size: float
    bullet: bool = False
    bold: bool = False
    code: bool = False
    table: bool = False  # `text` holds a table's rows, one a line
    header: str = ""  # a table's header line


_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"(?:page\s*)?[-–(]?\s*#\s*[-–)]?(?:\s*(?:of|/)\s*#)?|[ivxlc]{1,6}")
_DOT_LEADER = re.compile(r"(?:\s*\.){4,}\s*")
BULLET = re.compile(r"^\s*(?:[•●◦▪▫‣∙·■□–*]|-(?=\s))\s*")
_HYPHEN_END = re.compile(r"(?<=[^\W\d_])[-\u00ad\u2010]$")
_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+\S")
_SMALL_WORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the"}
)
RUNNING_EDGE_LINES = 2
EDGE_ZONE = 0.15  # top/bottom share of the page height where headers/footers live
COUNTER_VARIANTS = 3  # an edge line seen with this many different numbers is a running line


@dataclass(frozen=True, slots=True)
class PagePara:
    page: int  # 1-based
    para: Paragraph


def running_key(text: str) -> str:
    """Lines that differ only in numbers (page numbers, dates) count as the same line;
    a bare page number ('#', 'page # of #', roman numerals) is running by itself."""
    return _DIGITS.sub("#", clean(text)).lower()


def _edge_indexes(lines: Sequence[Line], height: float) -> set[int]:
    """The outermost lines at the top and bottom of a page, inside the margin zones."""
    order = sorted(range(len(lines)), key=lambda i: -lines[i].top)
    top = [i for i in order[:RUNNING_EDGE_LINES] if lines[i].bottom >= height * (1 - EDGE_ZONE)]
    bottom = [i for i in order[-RUNNING_EDGE_LINES:] if lines[i].top <= height * EDGE_ZONE]
    return set(top) | set(bottom)


def drop_running_lines(
    pages: Sequence[Sequence[Line]], heights: Sequence[float]
) -> list[list[Line]]:
    """Removes page headers/footers: lines in the top or bottom margin zone of a page whose
    digit-normalised text recurs there on at least half the pages (docs of 3+ pages), or
    on fewer pages with a number that changes each time, like a chapter's running header
    "Chapter 4: Functions 10" (three or more different numbers)."""
    if len(pages) < 3:
        return [list(p) for p in pages]
    edges = [_edge_indexes(page, h) for page, h in zip(pages, heights, strict=True)]
    seen: Counter[str] = Counter()
    variants: dict[str, set[str]] = {}
    for page, idx in zip(pages, edges, strict=True):
        keys = {running_key(page[i].text): clean(page[i].text) for i in idx}
        seen.update(keys.keys())
        for key, text in keys.items():
            if "#" in key:
                variants.setdefault(key, set()).add(text)
    needed = max(2, math.ceil(len(pages) * 0.5))
    running = {
        key
        for key, n in seen.items()
        if n >= needed
        or _PAGE_NUMBER.fullmatch(key)
        or len(variants.get(key, ())) >= COUNTER_VARIANTS
    }
    kept = [
        [ln for i, ln in enumerate(page) if i not in idx or running_key(ln.text) not in running]
        for page, idx in zip(pages, edges, strict=True)
    ]
    return never_emptied(pages, kept)


def never_emptied(pages: Sequence[Sequence[Line]], kept: Sequence[list[Line]]) -> list[list[Line]]:
    """A removal rule never empties a page (a page of one short numbered line is content,
    not a header) unless all the page held was a bare page number, nor the document."""
    result = [
        list(page) if not lines and not _only_page_numbers(page) else lines
        for page, lines in zip(pages, kept, strict=True)
    ]
    return result if any(result) else [list(p) for p in pages]


def _only_page_numbers(page: Sequence[Line]) -> bool:
    return all(_PAGE_NUMBER.fullmatch(running_key(ln.text)) for ln in page)


def join_lines(texts: Sequence[str]) -> str:
    """Joins the lines of one paragraph, mending words hyphenated across a line break;
    dot leaders ('Intro . . . . 3') shrink to an ellipsis."""
    out = ""
    for raw in texts:
        text = clean(_DOT_LEADER.sub(" … ", raw))
        if not text:
            continue
        if out and _HYPHEN_END.search(out) and text[0].islower():
            out = out[:-1] + text
        else:
            out = f"{out} {text}" if out else text
    return out


def _typical_leading(lines: Sequence[Line]) -> float | None:
    gaps = [
        a.bottom - b.bottom
        for a, b in pairwise(lines)
        if 0.6 * b.size < a.bottom - b.bottom < 3 * b.size
    ]
    # the lower quartile: with few lines, paragraph gaps would drag a median up
    return sorted(gaps)[len(gaps) // 4] if gaps else None


def heading_shaped(text: str) -> bool:
    """Short, not sentence-final, and numbered like '2.1 Foo' or title-cased."""
    text = clean(text)
    if len(text) > 100 or len(text.split()) > 14 or not any(c.isalpha() for c in text):
        return False
    if text.endswith((".", ",", ";", ":")):
        return False
    return bool(_NUMBERED.match(text)) or _title_case(text)


def _breaks(group: Sequence[Line], b: Line, leading: float | None, line_width: float) -> bool:
    a = group[-1]
    size = max(a.size, b.size, 1.0)
    dy = a.bottom - b.bottom
    if abs(dy) < 0.3 * size:  # same visual line, split by a wide horizontal gap
        return False
    if dy < 0 or abs(a.size - b.size) > 0.15 * size or a.mono != b.mono:
        return True
    if BULLET.match(b.text) and not b.mono:
        return True
    if _HYPHEN_END.search(a.text.rstrip()) and b.text.lstrip()[:1].islower() and dy < 1.6 * size:
        return False  # a word hyphenated across the break goes on (in a heading too)
    if dy > (leading * 1.35 if leading else 1.6 * size):
        return True
    short = line_width > 0 and (a.right - a.left) < 0.7 * line_width
    if short and len(group) == 1 and ((a.bold and not b.bold) or heading_shaped(a.text)):
        return True  # a heading line directly above its text
    ends_sentence = a.text.rstrip().endswith((".", "!", "?", ":"))
    indented = b.left > a.left + size
    return ends_sentence and (short or indented)


def paragraphs(lines: Sequence[Line], page: Sequence[Line] | None = None) -> list[Paragraph]:
    """Groups one page's lines into paragraphs by vertical gaps, font changes, bullets,
    short heading-like first lines and short sentence-final lines. `lines` may be a part
    of the page (the text between its tables); leading and line width come from `page`."""
    lines = [ln for ln in lines if clean(ln.text)]
    if not lines:
        return []
    whole = [ln for ln in page if clean(ln.text)] if page is not None else lines
    leading = _typical_leading(whole)
    line_width = median(ln.right - ln.left for ln in whole)
    groups: list[list[Line]] = [[lines[0]]]
    for b in lines[1:]:
        if _breaks(groups[-1], b, leading, line_width):
            groups.append([b])
        else:
            groups[-1].append(b)
    return [_paragraph(group) for group in groups]


def _paragraph(group: Sequence[Line]) -> Paragraph:
    size = max(ln.size for ln in group)
    rows = len({round(ln.bottom) for ln in group})
    if all(ln.mono for ln in group):
        return Paragraph(code_text(group), rows, size, code=True)
    first = group[0].text
    bullet = BULLET.match(first)
    texts = [first[bullet.end() :] if bullet else first] + [ln.text for ln in group[1:]]
    bold = all(ln.bold for ln in group)
    return Paragraph(join_lines(texts), rows, size, bool(bullet), bold)


def code_text(group: Sequence[Line]) -> str:
    """Lines of code keep their breaks; indentation is rebuilt from the x offsets."""
    left = min(ln.left for ln in group)
    out: list[str] = []
    for ln in group:
        indent = int((ln.left - left) / max(0.6 * ln.size, 1.0) + 0.25)
        out.append(" " * indent + ln.text.strip())
    return "\n".join(out)


def body_size(pages: Sequence[Sequence[Line]]) -> float:
    """The font size that carries the most characters."""
    weight: Counter[float] = Counter()
    for page in pages:
        for ln in page:
            weight[round(ln.size, 1)] += len(ln.text)
    return weight.most_common(1)[0][0] if weight else 0.0


def _title_case(text: str) -> bool:
    found: list[str] = re.findall(r"[^\W\d_][\w'’-]*", text)
    words = [w for w in found if w.lower() not in _SMALL_WORDS]
    if not words:
        return False
    return sum(w[0].isupper() for w in words) / len(words) >= 0.8


def _emphasised(para: Paragraph, body: float) -> bool:
    return para.size >= body * 1.15 or para.bold


def looks_like_heading(para: Paragraph, next_para: Paragraph | None, body: float) -> bool:
    """A short line, not sentence-final, followed by body text, and either set larger or
    bolder than body text, or numbered like '2.1 Foo' or title-cased."""
    text = para.text
    if para.table or para.code or para.bullet or para.lines > 2:
        return False
    if len(text) > 100 or len(text.split()) > 14:
        return False
    if next_para is None or not any(c.isalpha() for c in text):
        return False
    if text.endswith((".", ",", ";", ":")):
        return False
    if next_para.size > para.size * 1.05 or (para.lines > 1 and not _emphasised(para, body)):
        return False
    if _emphasised(para, body) and (
        not _emphasised(next_para, body) or next_para.size < para.size * 0.95
    ):
        return True  # e.g. a title above its first section heading
    ends = (".", "!", "?", ":", ";", ",")
    body_follows = (
        next_para.lines >= 2 or next_para.bullet or next_para.code or next_para.text.endswith(ends)
    )
    return body_follows and heading_shaped(text)


def is_subheading(para: Paragraph, next_para: Paragraph | None, body: float) -> bool:
    """A heading below a PDF outline's entries: heading-shaped and set larger or bolder
    than body text (a title-cased plain line is not enough where an outline exists)."""
    return _emphasised(para, body) and looks_like_heading(para, next_para, body)


def heading_level(para: Paragraph, headings: Sequence[Paragraph], body: float) -> int:
    """Headings rank by how they are set (larger, then bold, first); numbered headings of
    one rank nest by their number ('2.1' under '2')."""
    styles = sorted({(round(h.size, 1), h.bold) for h in headings}, reverse=True)
    rank = styles.index((round(para.size, 1), para.bold))
    numbered = _NUMBERED.match(para.text)
    return rank * 10 + (numbered.group(1).count(".") + 1 if numbered else 0)
