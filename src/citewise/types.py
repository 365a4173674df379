"""Frozen value types shared by every stage. No dicts-of-anything between stages."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from citewise.positions import LineBox

BlockKind = Literal["text", "table", "code", "list"]
DocumentStatus = Literal["staged", "indexing", "ready"]

# between the headings of a section path: "Library > os — … > os.makedirs(name, …)"
SECTION_SEPARATOR = " > "


@dataclass(frozen=True, slots=True)
class Block:
    """One structural unit a parser found: a paragraph, table, code block or list.

    `heading_path` is the chain of headings above it, outermost first.
    `page` is the 1-based physical page (PDF page, PPTX slide) or None for unpaged formats.
    For tables, `text` already holds readable rows and `header` the header line, so a
    chunker that splits the table can repeat it on every piece.
    """

    text: str
    heading_path: tuple[str, ...] = ()
    page: int | None = None
    kind: BlockKind = "text"
    header: str = ""


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle on a page, for highlighting: (x0, y0) top-left to (x1, y1) bottom-right,
    measured from the page's top-left corner in `unit` ("pt": PDF points, "px": image
    pixels). `page` is 1-based (None for unpaged formats, e.g. an image in a DOCX)."""

    page: int | None
    x0: float
    y0: float
    x1: float
    y1: float
    unit: Literal["pt", "px"] = "pt"
    text: str = ""


@dataclass(frozen=True, slots=True)
class OcrPage:
    """A page (or image) read by OCR: its engine, mean confidence (0-1) and word boxes."""

    page: int | None
    engine: str
    confidence: float
    words: tuple[Box, ...] = ()


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """What a parser returns: the blocks in reading order plus document-level metadata.
    `ocr` lists the pages whose text came from OCR (pages with a text layer never do)."""

    title: str
    blocks: tuple[Block, ...]
    format: str
    page_count: int | None = None
    metadata: Mapping[str, str] = field(default_factory=dict)
    ocr: tuple[OcrPage, ...] = ()

    @property
    def text_length(self) -> int:
        return sum(len(b.text) for b in self.blocks)


@dataclass(frozen=True, slots=True)
class Parent:
    """A section-aware span of ~2,000 characters that gives children their wider context."""

    ordinal: int
    text: str
    section: str
    page_start: int | None
    page_end: int | None


@dataclass(frozen=True, slots=True)
class Child:
    """The unit that is indexed and retrieved. `embed_text` fits the embedder's window."""

    ordinal: int
    parent_ordinal: int
    text: str
    embed_text: str
    section: str
    page_start: int | None
    page_end: int | None
    content_hash: str
    boxes: tuple[LineBox, ...] = ()  # PDF line rectangles, taken at ingest


@dataclass(frozen=True, slots=True)
class ChunkedDocument:
    parents: tuple[Parent, ...]
    children: tuple[Child, ...]


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """A stored document as listed by `docs ls` and the Python API."""

    doc_id: int
    collection: str
    source: str
    title: str
    format: str
    category: str
    tags: tuple[str, ...]
    content_hash: str
    mtime: float
    size: int
    status: DocumentStatus
    page_count: int | None
    chunk_count: int
    ingested_at: float
    pipeline: str = ""  # the parsers and chunking that made it (`ingest.pipeline_key`)


@dataclass(frozen=True, slots=True)
class NewDocument:
    """Everything the store needs to insert one document version."""

    collection: str
    source: str
    title: str
    format: str
    category: str
    tags: tuple[str, ...]
    content_hash: str
    mtime: float
    size: int
    page_count: int | None
    chunks: ChunkedDocument
    pipeline: str = ""


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

    @classmethod
    def of(
        cls, rec: ChunkRecord, rank: int, score: float, ranks: Mapping[str, int] | None = None
    ) -> Hit:
        """The hit for a stored chunk at `rank` with `score`."""
        return cls(
            rank=rank, chunk_id=rec.chunk_id, doc_id=rec.doc_id, source=rec.source,
            title=rec.title, page=rec.page_start, page_end=rec.page_end, section=rec.section,
            score=score, text=rec.text, parent_id=rec.parent_id, retriever_ranks=dict(ranks or {}),
            doc_hash=rec.doc_hash, boxes=rec.boxes,
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


OutcomeStatus = Literal["ingested", "replaced", "unchanged", "failed", "skipped", "pruned"]
SearchMode = Literal["hybrid", "keyword", "vector"]


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """What happened to one file in an ingest run; `reason` explains failures and skips."""

    source: str
    status: OutcomeStatus
    reason: str = ""
    chunks: int = 0


@dataclass(frozen=True, slots=True)
class IngestReport:
    outcomes: tuple[FileOutcome, ...]
    seconds: float
    chunks_embedded: int
    pages: int = 0

    def count(self, status: OutcomeStatus) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    def to_json(self) -> dict[str, object]:
        return {
            "outcomes": [
                {"source": o.source, "status": o.status, "reason": o.reason, "chunks": o.chunks}
                for o in self.outcomes
            ],
            "seconds": round(self.seconds, 3),
            "chunks_embedded": self.chunks_embedded,
            "pages": self.pages,
        }


Confidence = Literal["high", "medium", "low", "none"]


@dataclass(frozen=True, slots=True)
class Passage:
    """A numbered passage given to the answerer: `n` is what `[n]` in an answer refers to.
    `context` is the text shown to the answerer (the child, or its parent when expanded)."""

    n: int
    hit: Hit
    context: str


@dataclass(frozen=True, slots=True)
class Citation:
    n: int
    source: str
    page: int | None
    section: str
    chunk_id: int
    quote: str
    doc_hash: str = ""  # opens the kept original (web UI)
    boxes: tuple[LineBox, ...] = ()  # the quote's lines on PDF pages

    def to_json(self) -> dict[str, object]:
        return {
            "n": self.n,
            "source": self.source,
            "page": self.page,
            "section": self.section,
            "chunk_id": self.chunk_id,
            "quote": self.quote,
            "doc_hash": self.doc_hash or None,
            "boxes": [b.to_json() for b in self.boxes],
        }


@dataclass(frozen=True, slots=True)
class Fallback:
    """Why an answer is not the LLM's own: `used` is "extractive" (the extractive answer) or
    "passages" (the best passages' opening sentences); `reason` says what happened."""

    used: Literal["extractive", "passages"]
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"used": self.used, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Answer:
    answer: str
    intent: str
    citations: tuple[Citation, ...]
    sources: tuple[Hit, ...]
    grounded: bool
    confidence: Confidence
    session_id: str
    timings_ms: Mapping[str, float]
    rewritten_query: str | None = None
    related_docs: tuple[str, ...] = ()
    fallback: Fallback | None = None  # set when the LLM's answer could not be used

    def to_json(self) -> dict[str, object]:
        return {
            "answer": self.answer,
            "intent": self.intent,
            "citations": [c.to_json() for c in self.citations],
            "sources": [h.to_json() for h in self.sources],
            "grounded": self.grounded,
            "confidence": self.confidence,
            "session_id": self.session_id,
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
            "rewritten_query": self.rewritten_query,
            "related_docs": list(self.related_docs),
            "fallback": self.fallback.to_json() if self.fallback else None,
        }


# -- events streamed by the answer flow (rendered by the CLI, serialised as SSE by the API) --


@dataclass(frozen=True, slots=True)
class Status:
    stage: str
    message: str


@dataclass(frozen=True, slots=True)
class Token:
    text: str


@dataclass(frozen=True, slots=True)
class CitationEvent:
    citation: Citation


@dataclass(frozen=True, slots=True)
class Sources:
    hits: tuple[Hit, ...]


@dataclass(frozen=True, slots=True)
class Done:
    answer: Answer


@dataclass(frozen=True, slots=True)
class ErrorEvent:
    message: str
    kind: str


Event = Status | Token | CitationEvent | Sources | Done | ErrorEvent
