"""What parsing, chunking and ingest hand on: blocks, parsed and chunked documents, stored
documents and the report of an ingest run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from citewise.types.document_fields import DocumentFields
from citewise.types.positions import LineBox

BlockKind = Literal["text", "table", "code", "list"]
DocumentStatus = Literal["staged", "indexing", "ready"]

# between the headings of a section path: "Library > os — … > os.makedirs(name, …)"
SECTION_SEPARATOR = " > "
# marks a heading that names a file attached to a message ("› report.pdf")
ATTACHMENT_MARK = "› "


def attachment_source(source: str, section: str) -> tuple[str, str]:
    """Where a passage is, as shown to a person: a passage of a message's attachment names
    the attachment beside the message's file (`repairs.eml › report.pdf`), and its section
    keeps the other headings (`Dock repairs > Costs`)."""
    parts = section.split(SECTION_SEPARATOR) if section else []
    files = [p.removeprefix(ATTACHMENT_MARK) for p in parts if p.startswith(ATTACHMENT_MARK)]
    if not files:
        return source, section
    rest = [p for p in parts if not p.startswith(ATTACHMENT_MARK)]
    return " › ".join((source, *files)), SECTION_SEPARATOR.join(rest)


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
    # the framing block it is (`text.blocks.aside_kind`: "signature", "contents"…), "" none
    label: str = ""
    embed: bool = True  # False: kept for display and keyword search, given no vector


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
    fields: DocumentFields | None = None  # None: stored before documents were described

    def to_json(self) -> dict[str, object]:
        """`citewise docs ls --json`, one document."""
        return {
            "source": self.source,
            "title": self.title,
            "format": self.format,
            "category": self.category,
            "tags": list(self.tags),
            "pages": self.page_count,
            "chunks": self.chunk_count,
            "status": self.status,
            "content_hash": self.content_hash,
            "ingested_at": self.ingested_at,
        }


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
    fields: DocumentFields = field(default_factory=DocumentFields)


OutcomeStatus = Literal["ingested", "replaced", "unchanged", "failed", "skipped", "pruned"]


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
