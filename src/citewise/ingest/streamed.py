"""Large plain-text files ingested as a stream: read in pieces, chunked lazily, stored in
batches of whole parents, so peak memory does not grow with the file. The version stays
invisible (loading) until its last batch is stored, then appears at once like any other."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

from citewise.embed.base import Embedder
from citewise.errors import BackendError, DocumentError, TooLargeError
from citewise.ingest.chunking import ChunkingOptions, stream_chunks
from citewise.ingest.discovery import FoundFile, category_for
from citewise.ingest.document_fields import describe, first_page_text, opening_text
from citewise.ingest.enrich import Enricher, enrich
from citewise.ingest.failures import failure_reason
from citewise.ingest.originals import keep_original
from citewise.store.base import Store, StreamingStore
from citewise.types import Child, ChunkedDocument, FileOutcome, NewDocument, Parent

log = logging.getLogger(__name__)
_SNIFF_BYTES = 64 * 1024

# (bytes read, file size): called after each stored batch
OnBatch = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class StreamLimits:
    above_bytes: int = 8 * 2**20  # text, CSV and workbooks larger than this are streamed
    max_bytes: int = 2**30  # and refused above this
    piece_bytes: int = 1 << 20  # read (and longest paragraph) size
    batch_chunks: int = 256  # chunks stored per transaction


def streams(path: Path, size: int, limits: StreamLimits, store: Store, max_file_bytes: int) -> bool:
    """Whether this file is read as a stream into a store that takes documents in batches:
    plain text over the streaming size or the file limit, CSV/TSV and Excel workbooks (by
    extension and content) over 1 MiB too, and every mailbox. Raises TooLargeError over
    the limit."""
    if not isinstance(store, StreamingStore):
        return False
    from citewise.ingest.parsers import _size
    from citewise.ingest.parsers.block_stream import (
        ALWAYS_STREAMED_SUFFIXES,
        STREAMED_SUFFIXES,
        TABLE_STREAM_ABOVE,
        TABLE_SUFFIXES,
        stream_format,
    )

    suffix = path.suffix.lower()
    if suffix not in STREAMED_SUFFIXES:
        return False
    above = min(limits.above_bytes, max_file_bytes)
    if suffix in TABLE_SUFFIXES:
        above = min(above, TABLE_STREAM_ABOVE)
    if suffix not in ALWAYS_STREAMED_SUFFIXES and size <= above:
        return False
    with path.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    fmt = stream_format(path, head)
    if fmt is None or (fmt == "spreadsheet" and size > max_file_bytes):
        return False  # a workbook is checked whole for zip bombs: the file limit applies
    if size > limits.max_bytes:
        what = "text file" if fmt == "text" else "file"
        raise TooLargeError(
            f"the {what} is {_size(size)}, over the limit of {_size(limits.max_bytes)}"
            f" for {'text' if fmt == 'text' else 'files'} read as a stream"
        )
    return True


@dataclass(frozen=True, slots=True)
class StreamedFile:
    cand: FoundFile
    content_hash: str
    mtime: float
    size: int
    pipeline: str
    replaces: int | None


def ingest_streamed(
    store: Store,
    file: StreamedFile,
    collection: str,
    *,
    limits: StreamLimits,
    chunking: ChunkingOptions,
    embedder_factory: Callable[[], Embedder],
    enrichers: tuple[Enricher, ...] = (),
    originals_dir: Path | None = None,
    on_batch: OnBatch | None = None,
) -> tuple[FileOutcome, int | None]:
    """Stores one streamed file: its outcome and the id of the version stored."""
    from citewise.ingest.parsers.block_stream import open_block_stream, stream_format

    assert isinstance(store, StreamingStore)
    source = file.cand.source
    path = file.cand.path
    with ExitStack() as opened:
        try:
            with path.open("rb") as fh:
                fmt = stream_format(path, fh.read(_SNIFF_BYTES)) or "text"
            stream = opened.enter_context(
                open_block_stream(path, fmt, piece_bytes=limits.piece_bytes)
            )
        except (DocumentError, OSError) as exc:
            return FileOutcome(source, "failed", failure_reason(exc)), None
        header = NewDocument(
            collection=collection, source=source, title=stream.title, format=stream.format,
            category=category_for(file.cand.within or source, None), tags=(),
            content_hash=file.content_hash,
            mtime=file.mtime, size=file.size, page_count=None,
            chunks=ChunkedDocument((), ()), pipeline=file.pipeline,
        )  # fmt: skip
        doc_id = store.begin_document(header, replaces=file.replaces)
        if doc_id is None:
            return FileOutcome(source, "unchanged", "stored meanwhile by another ingest"), None
        count_tokens = embedder_factory().count_tokens
        chunks = stream_chunks(stream.title, stream.blocks, count_tokens, chunking)
        try:
            stored = 0
            opening = ""
            preamble = ""
            for batch in _batches(chunks, limits.batch_chunks):
                batch = enrich(replace(header, chunks=batch), enrichers).chunks
                opening = opening or first_page_text(batch.children)
                preamble = preamble or opening_text(batch.children)
                if not store.append_chunks(doc_id, batch):
                    return _superseded(source), None
                stored += len(batch.children)
                if on_batch is not None:
                    on_batch(stream.bytes_read(), file.size)
        except BackendError:  # the store or embedder failed: the next run removes the rest
            raise
        except Exception as exc:  # one odd file must not stop the run; nothing was shown
            store.delete_document(doc_id)
            if not isinstance(exc, DocumentError | OSError):
                log.exception("streamed ingest crashed on %s", path)
            return FileOutcome(source, "failed", failure_reason(exc)), None
    if not stored:
        store.delete_document(doc_id)
        empty = "contains only whitespace" if stream.format == "text" else "holds no text"
        return FileOutcome(source, "failed", f"empty: the file {empty}"), None
    if originals_dir is not None:
        keep_original(file.cand.path, file.content_hash, originals_dir)
    store.describe_document(doc_id, describe(stream.title, source, opening, preamble))
    if not store.complete_document(doc_id):
        return _superseded(source), None
    return FileOutcome(
        source,
        "replaced" if file.replaces is not None else "ingested",
        "read as a stream",
        chunks=stored,
    ), doc_id


def _superseded(source: str) -> FileOutcome:
    return FileOutcome(source, "failed", "another ingest stored this file meanwhile")


def _batches(chunks: Iterator[tuple[Parent, list[Child]]], size: int) -> Iterator[ChunkedDocument]:
    """Whole parents with their children, about `size` children per batch."""
    parents: list[Parent] = []
    children: list[Child] = []
    for parent, kids in chunks:
        parents.append(parent)
        children.extend(kids)
        if len(children) >= size:
            yield ChunkedDocument(tuple(parents), tuple(children))
            parents, children = [], []
    if parents:
        yield ChunkedDocument(tuple(parents), tuple(children))
