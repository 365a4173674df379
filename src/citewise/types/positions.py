"""Where a passage sits on its PDF page: line rectangles in PDF points (origin bottom-left),
taken at ingest and kept with each chunk and each citation, so a viewer can mark the cited
lines without matching text.

A chunk's `LineBox` also knows which characters of the chunk's text its line holds
(`start`, `end`), so a citation keeps only the lines of its quote.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LineBox:
    page: int  # 1-based
    x0: float
    y0: float
    x1: float
    y1: float
    start: int = 0  # chunk text offsets of the line's characters
    end: int = 0

    def to_json(self) -> dict[str, float]:
        """As citations carry it: the page and the corners in PDF points."""
        return {"page": self.page, "x0": self.x0, "y0": self.y0, "x1": self.x1, "y1": self.y1}


def encode_boxes(boxes: Sequence[LineBox]) -> str:
    """Compact JSON for the store: [[page, x0, y0, x1, y1, start, end], …]."""
    rows = [[b.page, round(b.x0, 2), round(b.y0, 2), round(b.x1, 2), round(b.y1, 2),
             b.start, b.end] for b in boxes]  # fmt: skip
    return json.dumps(rows, separators=(",", ":"))


def decode_boxes(text: str | None) -> tuple[LineBox, ...]:
    if not text:
        return ()
    return tuple(box_of(row) for row in json.loads(text))


def box_of(row: Sequence[float] | Mapping[str, float]) -> LineBox:
    """A box from its JSON: a citation's {"page", "x0", …} or the store's row
    [page, x0, y0, x1, y1, start, end]."""
    if isinstance(row, Mapping):
        x0, y0, x1, y1 = (float(row[k]) for k in ("x0", "y0", "x1", "y1"))
        return LineBox(int(row["page"]), x0, y0, x1, y1)
    x0, y0, x1, y1 = (float(v) for v in row[1:5])
    start, end = (int(v) for v in row[5:7]) if len(row) >= 7 else (0, 0)
    return LineBox(int(row[0]), x0, y0, x1, y1, start, end)


def alnum_index(text: str) -> tuple[str, list[int]]:
    """The lower-cased letters and digits of `text`, and each one's offset in `text`: the
    form in which a chunk, a quote and a page's text are compared (hyphenation, spacing and
    punctuation differ between them). A letter whose lower case is two characters (U+0130)
    stays as it is, so the string and the offsets keep the same length."""
    chars: list[str] = []
    offsets: list[int] = []
    for i, c in enumerate(text):
        if c.isalnum():
            low = c.lower()
            chars.append(low if len(low) == 1 else c)
            offsets.append(i)
    return "".join(chars), offsets


def boxes_for_quote(boxes: Sequence[LineBox], chunk_text: str, quote: str) -> list[LineBox]:
    """The lines of `boxes` that hold `quote`, a passage of `chunk_text`; every line when
    the quote is not found in the chunk (it may come from the chunk's wider context)."""
    if not boxes:
        return []
    chunk, offsets = alnum_index(chunk_text)
    needle, _ = alnum_index(quote.strip().strip(".…").removesuffix("..."))
    at = chunk.find(needle) if needle else -1
    if at < 0 or not offsets:
        return list(boxes)
    start, end = offsets[at], offsets[min(at + len(needle), len(offsets)) - 1] + 1
    return [b for b in boxes if b.start < end and b.end > start]
