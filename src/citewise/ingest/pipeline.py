"""The ingest pipeline: discover → hash → parse → chunk → store (keyword-searchable at once)
while a background worker embeds chunks that lack vectors and finalizes documents.

Resumable by construction: the store itself is the queue (chunks with has_vector = 0), so a
run killed at any point leaves committed documents searchable by keyword, and the next run
embeds what is missing and swaps in staged replacements.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Protocol

from citewise.embed._util import release_freed_memory
from citewise.embed.base import Embedder
from citewise.errors import DocumentError, NoTextError
from citewise.ingest.chunking import ChunkingOptions, chunk_document
from citewise.ingest.discovery import FoundFile, category_for, tags_for
from citewise.ingest.document_fields import (
    describe,
    describe_stored,
    first_page_text,
    opening_text,
)
from citewise.ingest.embedding import EMBED_BATCH, EmbedWorker, once_more_if_cut
from citewise.ingest.enrich import Enricher, enrich
from citewise.ingest.failures import failure_reason
from citewise.ingest.graph import GraphBuilder
from citewise.ingest.identity import discover_sources, prune
from citewise.ingest.originals import keep_original
from citewise.ingest.streamed import OnBatch, StreamedFile, StreamLimits, ingest_streamed, streams
from citewise.store.base import Store
from citewise.text.blocks import BLOCKS_VERSION
from citewise.types import (
    ChunkedDocument,
    DocumentInfo,
    FileOutcome,
    IngestReport,
    NewDocument,
)

log = logging.getLogger(__name__)
POSITIONS_VERSION = 2  # bump when what pdf_positions takes changes: stored PDFs are re-read


class IngestProgress(Protocol):
    def files(self, done: int, total: int, source: str) -> None: ...

    def embedded(self, done: int, total: int) -> None: ...


class _Silent:
    def files(self, done: int, total: int, source: str) -> None:
        pass

    def embedded(self, done: int, total: int) -> None:
        pass


@dataclass(frozen=True, slots=True)
class IngestJob:
    paths: Sequence[Path]
    collection: str
    prune: bool = False
    max_file_bytes: int = 100 * 2**20
    max_inflated_bytes: int = 256 * 2**20
    ocr: str = "tesseract"  # engine for pages without a text layer; "none" turns OCR off
    chunking: ChunkingOptions = field(default_factory=ChunkingOptions)
    # run in order on each document after chunking, before it is stored
    enrichers: Sequence[Enricher] = ()
    originals_dir: Path | None = None  # keep each ingested file here by hash (web UI viewer)
    streaming: StreamLimits = field(default_factory=StreamLimits)  # large plain text
    # uploads come from no folder: each file is named by its own name (the API picks it)
    uploads: bool = False


def run_ingest(
    job: IngestJob,
    open_store: Callable[[], Store],
    embedder_factory: Callable[[], Embedder],
    progress: IngestProgress | None = None,
    *,
    found: Callable[[Store], tuple[list[FoundFile], list[FileOutcome]]] | None = None,
) -> IngestReport:
    """Stores the files of `job.paths` (or those `found` names: `ingest.reindex`), embeds
    every chunk that lacks a vector and finalizes."""
    from citewise.ingest.parsers import is_supported, parse_file

    progress = progress or _Silent()
    started = time.perf_counter()
    key = pipeline_key(job.chunking)
    store = open_store()
    try:
        if found is not None:
            candidates, outcomes = found(store)
        else:
            candidates, outcomes = discover_sources(
                store, job.collection, job.paths, is_supported, uploads=job.uploads
            )
    except BaseException:
        store.close()
        raise
    graphs = GraphBuilder(open_store)
    graphs.start()
    worker = EmbedWorker(open_store, embedder_factory, progress, graphs.add, batch=EMBED_BATCH)
    worker.start()
    pages = 0
    try:
        for i, cand in enumerate(candidates):
            progress.files(i, len(candidates), cand.source)  # shown while a long file parses
            on_batch = _batch_progress(progress, worker, i, len(candidates), cand.source)
            on_page = _page_progress(progress, i, len(candidates), cand.source)
            one = partial(
                ingest_one, store, cand, job, key, embedder_factory, parse_file,
                on_batch=on_batch, on_page=on_page,
            )  # fmt: skip
            outcome, doc_pages, _ = once_more_if_cut(one, cand.source)
            release_freed_memory()
            outcomes.append(outcome)
            pages += doc_pages
            progress.files(i + 1, len(candidates), cand.source)
            worker.wake()
        if job.prune:
            outcomes.extend(prune(store, job.collection, job.paths, {c.source for c in candidates}))
    finally:
        worker.finish()
        graphs.finish()
        store.close()
    for failed in (worker.error, graphs.error):
        if failed is not None:
            raise failed
    return IngestReport(
        outcomes=tuple(outcomes),
        seconds=time.perf_counter() - started,
        chunks_embedded=worker.embedded,
        pages=pages,
    )


def _batch_progress(
    progress: IngestProgress, worker: EmbedWorker, done: int, total: int, source: str
) -> OnBatch:
    """Per stored batch of a streamed file: its share read, and the embedder woken."""

    def report(read: int, size: int) -> None:
        progress.files(done, total, f"{source} {100 * read // max(size, 1)}%")
        worker.wake()

    return report


OnPage = Callable[[str, int, int], None]  # (step, page, pages) of a long file's reading


def _page_progress(progress: IngestProgress, done: int, total: int, source: str) -> OnPage:
    """Per page of a paged file as it is parsed, then as its positions are read: a 300-page
    PDF shows its pages go by."""

    def report(step: str, page: int, pages: int) -> None:
        progress.files(done, total, f"{source} {step} {page}/{pages}")

    return report


def pipeline_key(chunking: ChunkingOptions) -> str:
    """What, besides the file's bytes, decides a stored document: a document stored under
    another key is re-parsed even when its file is unchanged."""
    from citewise.ingest.parsers import PARSER_VERSION

    c = chunking
    sizes = f"{c.parent_chars}/{c.child_tokens}/{c.overlap}/{c.min_child_tokens}/{c.window_tokens}"
    # positions: a PDF's chunks carry their line rectangles (POSITIONS_VERSION)
    return (
        f"parsers {PARSER_VERSION}; chunks {sizes}; positions {POSITIONS_VERSION}"
        f"; blocks {BLOCKS_VERSION}"
    )


def ingest_one(
    store: Store,
    cand: FoundFile,
    job: IngestJob,
    key: str,
    embedder_factory: Callable[[], Embedder],
    parse_file: Callable[..., object],
    *,
    on_batch: OnBatch | None = None,
    on_page: OnPage | None = None,
) -> tuple[FileOutcome, int, int | None]:
    """Stores one file (keyword-searchable at once; vectors come later): its outcome, its
    pages and the id of the version it stored, if any."""
    try:
        stat = cand.path.stat()
        data_hash = _file_hash(cand.path)
    except OSError as exc:
        return FileOutcome(cand.source, "failed", failure_reason(exc)), 0, None
    current = store.find_document(job.collection, cand.source)
    staged = store.find_staged(job.collection, cand.source)
    if staged is not None:
        if staged.content_hash == data_hash and staged.pipeline == key:
            return _finishing(cand, staged), 0, None
        store.delete_document(staged.doc_id)
    same_bytes = current is not None and current.content_hash == data_hash
    if current is not None and same_bytes and current.pipeline == key:
        if current.fields is None:  # stored before documents were described
            describe_stored(store, current)
        if current.status != "ready":
            return _finishing(cand, current), 0, None
        return FileOutcome(cand.source, "unchanged", chunks=current.chunk_count), 0, None
    try:
        streamed = streams(cand.path, stat.st_size, job.streaming, store, job.max_file_bytes)
    except DocumentError as exc:
        return FileOutcome(cand.source, "failed", failure_reason(exc)), 0, None
    except OSError as exc:
        return FileOutcome(cand.source, "failed", failure_reason(exc)), 0, None
    if streamed:
        file = StreamedFile(
            cand, data_hash, stat.st_mtime, stat.st_size, key, current.doc_id if current else None
        )
        outcome, doc_id = ingest_streamed(
            store, file, job.collection, limits=job.streaming, chunking=job.chunking,
            embedder_factory=embedder_factory, enrichers=tuple(job.enrichers),
            originals_dir=job.originals_dir, on_batch=on_batch,
        )  # fmt: skip
        return outcome, 1 if doc_id is not None else 0, doc_id
    try:
        parsed = parse_file(
            cand.path,
            max_bytes=job.max_file_bytes,
            max_inflated_bytes=job.max_inflated_bytes,
            ocr=job.ocr,
            **({"on_page": partial(on_page, "page")} if on_page is not None else {}),
        )
        from citewise.types import ParsedDocument

        assert isinstance(parsed, ParsedDocument)
        chunks = chunk_document(parsed, embedder_factory().count_tokens, job.chunking)
        if not chunks.children:
            raise NoTextError("nothing to index")
        # the blocks are in the chunks now: freed before positions are read and stored
        parsed = replace(parsed, blocks=(), ocr=())
        if parsed.format == "pdf":
            positions = partial(on_page, "positions, page") if on_page is not None else None
            chunks = _with_pdf_boxes(cand.path, chunks, positions)
    except DocumentError as exc:
        reason = failure_reason(exc)
        if current is not None and same_bytes and isinstance(exc, NoTextError):
            # same bytes, and today's parsers find no text in them: the stored version is
            # an older parser's reading (e.g. a link index), not content to keep
            store.delete_document(current.doc_id)
            reason += "; the version stored by an earlier citewise was removed"
        return FileOutcome(cand.source, "failed", reason), 0, None
    except Exception as exc:  # a parser bug on one odd file must not stop the run
        log.exception("parser crashed on %s", cand.path)
        return FileOutcome(cand.source, "failed", failure_reason(exc)), 0, None
    title = parsed.title or cand.path.stem
    new = NewDocument(
        collection=job.collection,
        source=cand.source,
        title=title,
        format=parsed.format,
        category=category_for(cand.within or cand.source, parsed.metadata.get("category")),
        tags=tags_for(parsed.metadata.get("tags")),
        content_hash=data_hash,
        mtime=stat.st_mtime,
        size=stat.st_size,
        page_count=parsed.page_count,
        chunks=chunks,
        pipeline=key,
        fields=describe(
            title, cand.source, first_page_text(chunks.children), opening_text(chunks.children)
        ),
    )
    new = enrich(new, job.enrichers)
    if job.originals_dir is not None:
        keep_original(cand.path, data_hash, job.originals_dir)
    doc_id = store.add_document(new, replaces=current.doc_id if current else None)
    outcome = FileOutcome(
        cand.source,
        "replaced" if current else "ingested",
        "re-parsed: file unchanged, parsing or chunking changed" if same_bytes else "",
        chunks=len(chunks.children),
    )
    return outcome, parsed.page_count or 1, doc_id


def _finishing(cand: FoundFile, stored: DocumentInfo) -> FileOutcome:
    """A version an interrupted run stored and did not embed: this run finishes it."""
    reason = "completed an interrupted attempt"
    return FileOutcome(cand.source, "ingested", reason, stored.chunk_count)


def _with_pdf_boxes(
    path: Path, chunks: ChunkedDocument, on_page: Callable[[int, int], None] | None = None
) -> ChunkedDocument:
    """The chunks with their line rectangles on the PDF's pages (citation highlights)."""
    from citewise.ingest.pdf_positions import chunk_line_boxes

    boxes = chunk_line_boxes(path, chunks.children, on_page)
    children = tuple(replace(c, boxes=b) for c, b in zip(chunks.children, boxes, strict=True))
    return replace(chunks, children=children)


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
