"""Section-aware parent/child chunking (pure functions).

Parents (~`parent_chars`) carry wide context for answers; children are what gets indexed.
A child never crosses a section boundary, its embedded text (heading path + text) fits the
embedder's window, consecutive children of a parent overlap by ~`overlap`, a tiny tail is
merged into its predecessor, and every piece of a split table repeats the header row.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from citewise.text.blocks import label_of, without_furniture
from citewise.types import (
    SECTION_SEPARATOR,
    Block,
    Child,
    ChunkedDocument,
    Parent,
    ParsedDocument,
)

TokenCounter = Callable[[str], int]
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+(?=[\"'(\[A-Z0-9`])")


@dataclass(frozen=True, slots=True)
class ChunkingOptions:
    parent_chars: int = 2000
    child_tokens: int = 200
    overlap: float = 0.15
    min_child_tokens: int = 40
    window_tokens: int = 254  # what the embedder reads, special tokens excluded
    # framing blocks (`text.blocks.Aside`) kept for display and keyword search, not embedded
    unembedded: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class _Unit:
    """A sentence, code line group or table row: the smallest thing we never split."""

    text: str
    page: int | None
    tokens: int
    joiner: str  # how this unit joins the previous one: " " or "\n"


def section_label(path: Sequence[str]) -> str:
    return SECTION_SEPARATOR.join(p for p in path if p)


def chunk_document(
    doc: ParsedDocument, count_tokens: TokenCounter, options: ChunkingOptions | None = None
) -> ChunkedDocument:
    parents: list[Parent] = []
    children: list[Child] = []
    for parent, kids in stream_chunks(doc.title, doc.blocks, count_tokens, options):
        parents.append(parent)
        children.extend(kids)
    return ChunkedDocument(parents=tuple(parents), children=tuple(children))


def stream_chunks(
    title: str,
    blocks: Iterable[Block],
    count_tokens: TokenCounter,
    options: ChunkingOptions | None = None,
) -> Iterator[tuple[Parent, list[Child]]]:
    """Each parent with its children, in reading order, reading `blocks` lazily: a document
    read piece by piece is chunked exactly as if it had been read whole."""
    opts = options or ChunkingOptions()
    parent_ordinal = child_ordinal = 0
    for path, section_blocks in _sections(blocks):
        label = section_label(path)
        heading = _embed_heading(title, label)
        budget = max(16, min(opts.child_tokens, opts.window_tokens - count_tokens(heading) - 1))
        units = (u for b in section_blocks for u in _block_units(b, count_tokens, budget))
        for parent_units in _group_parents(units, opts.parent_chars):
            parent = _make_parent(parent_ordinal, parent_units, label)
            kids: list[Child] = []
            for window in _windows(parent_units, budget, opts.overlap, opts.min_child_tokens):
                text = _join(window)
                embed_text = f"{heading}\n{text}" if heading else text
                while count_tokens(embed_text) > opts.window_tokens and len(window) > 1:
                    window = window[:-1]
                    text = _join(window)
                    embed_text = f"{heading}\n{text}" if heading else text
                kind = label_of(text, label)  # what retrieval reads instead of reading it again
                kids.append(
                    Child(
                        ordinal=child_ordinal,
                        parent_ordinal=parent_ordinal,
                        text=text,
                        embed_text=embed_text,
                        section=label,
                        page_start=_min_page(window),
                        page_end=_max_page(window),
                        content_hash=hashlib.sha1(text.encode("utf-8")).hexdigest(),
                        label=kind,
                        embed=kind not in opts.unembedded,
                    )
                )
                child_ordinal += 1
            yield parent, kids
            parent_ordinal += 1


def _embed_heading(title: str, label: str) -> str:
    if not label:
        return title
    if title and not label.startswith(title):
        return f"{title}: {label}"
    return label


def _sections(blocks: Iterable[Block]) -> Iterator[tuple[tuple[str, ...], Iterator[Block]]]:
    """Runs of consecutive non-empty blocks sharing a heading path, read lazily."""
    kept = (b for b in map(_without_furniture, blocks) if b.text.strip())
    yield from itertools.groupby(kept, key=lambda b: b.heading_path)


def _without_furniture(block: Block) -> Block:
    """The block without page furniture ("[Remainder of Page Intentionally Left Blank]",
    "Page 3 of 12") and anchor glyphs ("Install¶") in its text and headings."""
    text = without_furniture(block.text)
    path = tuple(without_furniture(h) for h in block.heading_path)
    if text == block.text and path == block.heading_path:
        return block
    return replace(block, text=text, heading_path=path)


def _block_units(block: Block, count_tokens: TokenCounter, budget: int) -> Iterator[_Unit]:
    """Units of one block; the first starts on a new line (a paragraph break)."""
    for i, unit in enumerate(_units(block, count_tokens, budget)):
        yield _Unit(unit.text, unit.page, unit.tokens, "\n") if i == 0 else unit


def _units(block: Block, count_tokens: TokenCounter, budget: int) -> Iterator[_Unit]:
    if block.kind in ("table", "code", "list"):
        pieces = [line for line in block.text.split("\n") if line.strip()]
        header = block.header.strip() if block.kind == "table" else ""
        first = True
        for piece in _pack_lines(pieces, count_tokens, budget // 2):
            text = f"{header}\n{piece}" if header and not first else piece
            if header and first and not piece.startswith(header):
                text = f"{header}\n{piece}"
            first = False
            yield from _split_oversized(text, block.page, count_tokens, budget, "\n")
        return
    for sentence in _SENTENCE_END.split(block.text.strip()):
        if sentence.strip():
            yield from _split_oversized(sentence.strip(), block.page, count_tokens, budget, " ")


def _pack_lines(lines: list[str], count_tokens: TokenCounter, budget: int) -> Iterator[str]:
    """Groups consecutive lines up to `budget` tokens so code/table units stay coherent."""
    group: list[str] = []
    used = 0
    for line in lines:
        tokens = count_tokens(line)
        if group and used + tokens > budget:
            yield "\n".join(group)
            group, used = [], 0
        group.append(line)
        used += tokens
    if group:
        yield "\n".join(group)


def _split_oversized(
    text: str, page: int | None, count_tokens: TokenCounter, budget: int, joiner: str
) -> Iterator[_Unit]:
    """Pieces of `text` of at most `budget` tokens each. Words differ in token count (a
    dotted identifier is many word pieces), so a piece cut in proportion is checked and cut
    again until it fits; a single word longer than the budget is cut by characters."""
    tokens = count_tokens(text)
    if tokens <= budget:
        yield _Unit(text, page, tokens, joiner)
        return
    words = text.split(" ")
    if len(words) == 1:
        size = max(1, int(len(text) * budget / tokens * 0.9))
        for start in range(0, len(text), size):
            yield from _split_oversized(text[start : start + size], page, count_tokens, budget, " ")
        return
    step = max(1, int(len(words) * budget / tokens * 0.9))
    for start in range(0, len(words), step):
        piece = " ".join(words[start : start + step])
        yield from _split_oversized(piece, page, count_tokens, budget, " ")


def _group_parents(units: Iterable[_Unit], parent_chars: int) -> Iterator[list[_Unit]]:
    group: list[_Unit] = []
    size = 0
    for unit in units:
        if group and size + len(unit.text) > parent_chars:
            yield group
            group, size = [], 0
        group.append(unit)
        size += len(unit.text) + 1
    if group:
        yield group


def _windows(
    units: list[_Unit], budget: int, overlap: float, min_tokens: int
) -> Iterator[list[_Unit]]:
    spans: list[tuple[int, int]] = []
    start = 0
    while start < len(units):
        end, used = start, 0
        while end < len(units) and (end == start or used + units[end].tokens <= budget):
            used += units[end].tokens
            end += 1
        spans.append((start, end))
        if end >= len(units):
            break
        back, carried = end, 0
        while back - 1 > start and carried + units[back - 1].tokens <= budget * overlap:
            back -= 1
            carried += units[back].tokens
        start = back
    if len(spans) > 1:
        (prev_start, _), (last_start, last_end) = spans[-2], spans[-1]
        last_tokens = sum(u.tokens for u in units[last_start:last_end])
        merged_tokens = sum(u.tokens for u in units[prev_start:last_end])
        if last_tokens < min_tokens and merged_tokens <= budget:
            spans[-2:] = [(prev_start, last_end)]
    for begin, finish in spans:
        yield units[begin:finish]


def _make_parent(ordinal: int, units: list[_Unit], label: str) -> Parent:
    return Parent(
        ordinal=ordinal,
        text=_join(units),
        section=label,
        page_start=_min_page(units),
        page_end=_max_page(units),
    )


def _join(units: Sequence[_Unit]) -> str:
    out: list[str] = []
    for i, unit in enumerate(units):
        if i:
            out.append(unit.joiner)
        out.append(unit.text)
    return "".join(out)


def _min_page(units: Sequence[_Unit]) -> int | None:
    pages = [u.page for u in units if u.page is not None]
    return min(pages) if pages else None


def _max_page(units: Sequence[_Unit]) -> int | None:
    pages = [u.page for u in units if u.page is not None]
    return max(pages) if pages else None
