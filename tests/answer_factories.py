"""Hand-made hits and passages for the answer-stage tests (plain values, no store)."""

from __future__ import annotations

from citewise.answer.flow import DocumentAnswerer
from citewise.embed.hashing import HashingEmbedder
from citewise.extractive.extractor import Extractor
from citewise.extractive.options import ABSTAIN_BELOW
from citewise.retrieve.gate import RelevanceGate
from citewise.retrieve.passages import PassageReader
from citewise.rules import rule_pack
from citewise.types import Hit, Passage


def hit(
    text: str = "",
    *,
    rank: int = 1,
    source: str = "guide.html",
    title: str = "Guide",
    section: str = "Guide > Intro",
    score: float = 0.5,
    page: int | None = None,
    page_end: int | None = None,
    parent_id: int | None = None,
    chunk_id: int | None = None,
) -> Hit:
    return Hit(
        rank=rank,
        chunk_id=chunk_id if chunk_id is not None else 100 + rank,
        doc_id=1,
        source=source,
        title=title,
        page=page,
        page_end=page_end,
        section=section,
        score=score,
        text=text,
        parent_id=parent_id if parent_id is not None else 1000 + rank,
    )


def passage(
    n: int,
    text: str,
    *,
    source: str = "guide.html",
    title: str = "Guide",
    section: str = "Guide > Intro",
    page: int | None = None,
    score: float = 0.5,
) -> Passage:
    h = hit(text, rank=n, source=source, title=title, section=section, page=page, score=score)
    return Passage(n, h, text)


def document_answerer(reader: PassageReader) -> DocumentAnswerer:
    """A flow over `reader` with the hashing embedder, no LLM and the general profile's
    parts, wired as `services.make_answerer` wires them."""
    rules = rule_pack(None)
    return DocumentAnswerer(
        reader,
        HashingEmbedder,
        None,
        gate=RelevanceGate(reader.vectors, code_names=rules.code_names),
        extractor=Extractor(HashingEmbedder, ABSTAIN_BELOW, rules),
        rules=rules,
    )
