"""The opening passages of the pages about a definitional question's subject, ranked with the
top hit (pure): search often ranks pages that merely mention the subject above the page that
introduces it ("What is DHAT?" → "10. DHAT: a dynamic heap analysis tool")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from citewise.types import ChunkRecord, Hit

SHORT_OPENING_WORDS = 40  # an opening passage this short leaves the definition to the next
OPENING_KEPT_WITHIN = 5  # an opening passage search ranks this high stays where it is


def with_openings(hits: Sequence[Hit], openings: Sequence[Sequence[ChunkRecord]]) -> list[Hit]:
    """`hits` with the opening passage of each page in `openings` (the first chunks of up to
    two pages about the subject, see `definitions.pages_about`) ranked with the top hit when
    search did not bring it, or, for the one page about it, brought it below the first
    `OPENING_KEPT_WITHIN`; a short opening ("To use this tool, you must specify --tool=dhat
    …") brings the passage after it, where the overview starts. Re-ranked 1..n."""
    top = hits[0].score if hits else 1.0
    extra: list[Hit] = []
    for chunks in openings:
        short = bool(chunks) and len(chunks[0].text.split()) < SHORT_OPENING_WORDS
        extra += [Hit.of(r, 0, top) for r in (chunks if short else chunks[:1])]
    kept = hits if len(openings) > 1 else hits[:OPENING_KEPT_WITHIN]
    near = {h.chunk_id for h in kept}
    extra = [h for h in extra if h.chunk_id not in near]
    moved = {h.chunk_id for h in extra}
    merged = extra + [h for h in hits if h.chunk_id not in moved]
    return [replace(h, rank=i + 1) for i, h in enumerate(merged)]
