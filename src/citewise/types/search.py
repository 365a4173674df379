"""What search takes and gives: filters, candidates, stored chunk records, hits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from citewise.types.positions import LineBox


@dataclass(frozen=True, slots=True)
class SearchFilter:
    """Restricts a search. Applied inside the store's queries, never after retrieval."""

    collection: str = "default"
    sources: tuple[str, ...] = ()
    category: str | None = None
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Candidate:
    """A chunk a single retriever returned, with its rank (1-based) and raw score."""

    chunk_id: int
    rank: int
    score: float


@dataclass(frozen=True, slots=True)
class ChunkRecord:
    chunk_id: int
    doc_id: int
    source: str
    title: str
    section: str
    page_start: int | None
    page_end: int | None
    text: str
    parent_id: int
    parent_text: str = ""
    doc_hash: str = ""  # the document's content hash: the key of its kept original
    boxes: tuple[LineBox, ...] = ()
    label: str | None = None  # the framing block ingest found ("" none; None: not labelled)


@dataclass(frozen=True, slots=True)
class Hit:
    """A retrieved chunk in the final ranking."""

    rank: int
    chunk_id: int
    doc_id: int
    source: str
    title: str
    page: int | None
    page_end: int | None
    section: str
    score: float
    text: str
    parent_id: int
    retriever_ranks: Mapping[str, int] = field(default_factory=dict)
    doc_hash: str = ""
    boxes: tuple[LineBox, ...] = ()
    label: str | None = None  # as `ChunkRecord.label`

    @classmethod
    def of(
        cls, rec: ChunkRecord, rank: int, score: float, ranks: Mapping[str, int] | None = None
    ) -> Hit:
        """The hit for a stored chunk at `rank` with `score`."""
        return cls(
            rank=rank, chunk_id=rec.chunk_id, doc_id=rec.doc_id, source=rec.source,
            title=rec.title, page=rec.page_start, page_end=rec.page_end, section=rec.section,
            score=score, text=rec.text, parent_id=rec.parent_id, retriever_ranks=dict(ranks or {}),
            doc_hash=rec.doc_hash, boxes=rec.boxes, label=rec.label,
        )  # fmt: skip

    def to_json(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "source": self.source,
            "page": self.page,
            "section": self.section,
            "chunk_id": self.chunk_id,
            "score": round(self.score, 6),
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class SearchResult:
    query: str
    hits: tuple[Hit, ...]
    timings_ms: Mapping[str, float]

    def to_json(self) -> dict[str, object]:
        return {
            "query": self.query,
            "hits": [h.to_json() for h in self.hits],
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
        }


SearchMode = Literal["hybrid", "keyword", "vector"]
