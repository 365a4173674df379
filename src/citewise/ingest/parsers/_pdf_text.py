"""A pdfium text page read as lines: each line's text, box, font size, weight and pitch, and
the word boxes of lines that may belong to a table."""

from __future__ import annotations

import ctypes
import math
import re
from dataclasses import dataclass, replace
from typing import Any

import pypdfium2.raw as pdfium_c

from citewise.ingest.parsers._pdf_layout import BULLET, Line, Word
from citewise.ingest.parsers._pdf_tables import looks_tabular

_FORCE_BOLD = 1 << 18  # PDF font descriptor flags
_FIXED_PITCH = 1 << 0
_BOLD = ("bold", "black", "heavy", "semibold", "demi")
_MONO = ("courier", "mono", "consol", "menlo", "typewriter", "fixed", "cmtt", "lmtt", "nimbusmon")
# pdfium joins a line that ends in a hyphen to the next one, the hyphen marked U+FFFE: split
# there when the word goes on in lower case (an upper-case part may be a name or a URL)
_LINE_BREAK = re.compile(r"\r\n|\r|\n|\ufffe(?=[a-zß-öø-ÿ])")
_SOFT_HYPHEN = "\ufffe"
_WORD = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class _Glyph:
    left: float
    top: float
    right: float
    bottom: float
    size: float
    bold: bool
    mono: bool


def _char_box(textpage: Any, text_index: int) -> tuple[int, Any] | None:
    """The page's character index for a text index, with its loose box; none off the page."""
    char = pdfium_c.FPDFText_GetCharIndexFromTextIndex(textpage.raw, text_index)
    if char < 0:
        return None
    rect = pdfium_c.FS_RECTF()
    if not pdfium_c.FPDFText_GetLooseCharBox(textpage.raw, char, ctypes.byref(rect)):
        return None
    return char, rect


def _glyph(textpage: Any, text_index: int) -> _Glyph | None:
    boxed = _char_box(textpage, text_index)
    if boxed is None:
        return None
    char, rect = boxed
    size = float(pdfium_c.FPDFText_GetFontSize(textpage.raw, char))
    matrix = pdfium_c.FS_MATRIX()
    if pdfium_c.FPDFText_GetMatrix(textpage.raw, char, ctypes.byref(matrix)):
        # a font set at size 1 and scaled by the text matrix (TeX's Type 3 fonts) is as tall
        # as the matrix makes it
        size *= math.hypot(matrix.c, matrix.d) or 1.0
    weight = pdfium_c.FPDFText_GetFontWeight(textpage.raw, char)
    buffer = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pdfium_c.FPDFText_GetFontInfo(textpage.raw, char, buffer, 128, ctypes.byref(flags))
    font = buffer.value.decode("latin-1", errors="replace").lower()
    bold = weight >= 600 or bool(flags.value & _FORCE_BOLD) or any(w in font for w in _BOLD)
    mono = bool(flags.value & _FIXED_PITCH) or any(w in font for w in _MONO)
    return _Glyph(rect.left, rect.top, rect.right, rect.bottom, size, bold, mono)


def text_page_lines(textpage: Any) -> list[Line]:
    text: str = textpage.get_text_range()
    lines: list[Line] = []
    starts: list[int] = []
    offset = 0
    for match in (*_LINE_BREAK.finditer(text), None):
        end = match.start() if match else len(text)
        raw = text[offset:end]
        stripped = raw.strip()
        if stripped:
            start = offset + raw.index(stripped[0])
            # font facts come from the first letter or digit: a bullet glyph may come from
            # a symbol font; the position comes from the first visible character
            alnum = next((i for i, c in enumerate(stripped) if c.isalnum()), 0)
            head = _glyph(textpage, start + alnum)
            edge = _glyph(textpage, start) if alnum else head
            tail = _glyph(textpage, start + len(stripped) - 1)
            if match and match.group() == _SOFT_HYPHEN:
                raw = f"{raw}-"  # the paragraph joiner mends the word
            lines.append(_line(raw, head, edge, tail, lines[-1] if lines else None))
            starts.append(offset)
        offset = match.end() if match else len(text)
    if looks_tabular([ln.text for ln in lines]):  # word boxes only where tables may be
        placed = zip(lines, starts, strict=True)
        lines = [replace(ln, words=_words(textpage, ln.text, at)) for ln, at in placed]
    return lines


def _words(textpage: Any, raw: str, offset: int) -> tuple[Word, ...]:
    """The line's words with their left and right edges; none when pdfium cannot place one."""
    words: list[Word] = []
    for match in _WORD.finditer(raw):
        first = _char_span(textpage, offset + match.start())
        last = _char_span(textpage, offset + match.end() - 1)
        if first is None or last is None:
            return ()
        words.append(Word(match.group(), first[0], last[1], first[2]))
    return tuple(words)


def _char_span(textpage: Any, text_index: int) -> tuple[float, float, float] | None:
    boxed = _char_box(textpage, text_index)
    if boxed is None:
        return None
    rect = boxed[1]
    return rect.left, rect.right, rect.bottom


def _line(
    text: str,
    head: _Glyph | None,
    edge: _Glyph | None,
    tail: _Glyph | None,
    previous: Line | None,
) -> Line:
    if head is None:  # pdfium could not place the line: treat it as continuing the last one
        return replace(previous, text=text) if previous else Line(text, 0, 0, 0, 0, 0)
    left = min(head.left, edge.left) if edge is not None else head.left
    right = max(head.right, tail.right) if tail is not None else head.right
    # prose (and list items) may start with a code word: code is mono from end to end
    mono = head.mono and (tail is None or tail.mono) and not BULLET.match(text)
    return Line(text, head.top, head.bottom, left, right, head.size, head.bold, mono)
