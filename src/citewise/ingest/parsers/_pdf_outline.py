"""Outline (bookmark) entries → heading paths for the paragraphs of a PDF (pure)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citewise.ingest.parsers._common import clean
from citewise.ingest.parsers._pdf_layout import PagePara

_SECTION_NUMBER = re.compile(
    r"\s*(?:(?:chapter|appendix|section|part)\s+)?[\da-z]{1,3}(?:\.\d+)*\.?\s+"
)


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    path: tuple[str, ...]
    page: int  # 0-based


def placements(paras: Sequence[PagePara], outline: Sequence[OutlineEntry]) -> list[int]:
    """Where each outline entry takes effect: at the paragraph on its page whose text is the
    entry's title, else at the start of its page (never before the previous entry)."""
    first_on_page: dict[int, int] = {}
    for i, pp in enumerate(paras):
        first_on_page.setdefault(pp.page, i)
    claimed: set[int] = set()
    placed: list[int] = []
    for entry in outline:
        page = entry.page + 1
        start = next((first_on_page[p] for p in sorted(first_on_page) if p >= page), len(paras))
        start = max(start, placed[-1] if placed else 0)
        match = next(
            (
                i
                for i in range(start, len(paras))
                if paras[i].page == page
                and i not in claimed
                and is_title_line(paras[i].para.text, entry.path[-1])
            ),
            None,
        )
        if match is not None:
            claimed.add(match)
        placed.append(start if match is None else match)
    return placed


def is_title_line(text: str, title: str) -> bool:
    """Whether a paragraph is an outline entry's heading, perhaps with its number
    ('2.1 ASN.1 syntax' for the entry 'ASN.1 syntax')."""
    text, title = clean(text).lower(), clean(title).lower()
    if text == title:
        return True
    return text.endswith(title) and bool(_SECTION_NUMBER.fullmatch(text[: -len(title)]))


def outline_paths(
    paras: Sequence[PagePara], outline: Sequence[OutlineEntry]
) -> list[tuple[str, ...] | None]:
    """The heading path of each paragraph: that of the latest outline entry at or before
    it. None marks a paragraph that is an entry's own heading line (not body text)."""
    placed = placements(paras, outline)
    paths: list[tuple[str, ...] | None] = []
    path: tuple[str, ...] = ()
    next_entry = 0
    for i, pp in enumerate(paras):
        is_heading = False
        while next_entry < len(outline) and placed[next_entry] <= i:
            entry = outline[next_entry]
            path = entry.path
            is_heading = is_heading or is_title_line(pp.para.text, entry.path[-1])
            next_entry += 1
        paths.append(None if is_heading else path)
    return paths
