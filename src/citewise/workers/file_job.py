"""One ingestion job: a file parsed, chunked, stored and embedded, then finalized.

Idempotent by content hash: a file whose stored version has the same bytes (and parsing)
is `unchanged`, so a job run twice, or the same file sent twice, stores one version. Two
workers racing on one new file cannot both store it either: the store refuses a second
visible version of a source (the loser fails and, retried, finds the file unchanged).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from citewise.embed.base import Embedder
from citewise.ingest.chunking import ChunkingOptions
from citewise.ingest.discovery import FoundFile
from citewise.ingest.embedding import EMBED_BATCH
from citewise.ingest.graph import store_graphs
from citewise.ingest.pipeline import IngestJob, ingest_one, pipeline_key
from citewise.ingest.streamed import StreamLimits
from citewise.store.base import Store
from citewise.types import FileOutcome


@dataclass(frozen=True, slots=True)
class FileJob:
    path: str  # absolute, as every worker sees it (a shared volume)
    source: str
    collection: str

    def as_args(self) -> dict[str, str]:
        return {"path": self.path, "source": self.source, "collection": self.collection}


def run_file_job(
    job: FileJob,
    store: Store,
    embedder_factory: Callable[[], Embedder],
    *,
    chunking: ChunkingOptions | None = None,
    max_file_bytes: int = 100 * 2**20,
    streaming: StreamLimits | None = None,
) -> FileOutcome:
    """Stores and embeds one file; a document error is a `failed` outcome (retrying cannot
    help), anything else (the store or the embedder failing) raises, to be retried."""
    from citewise.ingest.parsers import parse_file

    settings = IngestJob(
        paths=[Path(job.path)],
        collection=job.collection,
        max_file_bytes=max_file_bytes,
        chunking=chunking or ChunkingOptions(),
        streaming=streaming or StreamLimits(),
    )
    cand = FoundFile(Path(job.path), job.source)
    outcome, _, _ = ingest_one(
        store, cand, settings, pipeline_key(settings.chunking), embedder_factory, parse_file
    )
    # the version just stored, or one an interrupted attempt stored and did not embed
    resumed = 0
    for doc in (store.find_staged(job.collection, job.source),
                store.find_document(job.collection, job.source)):  # fmt: skip
        if doc is not None and doc.status != "ready":
            resumed += embed_document(store, embedder_factory, doc.doc_id)
    store_graphs(store, store.finalize())
    if outcome.status == "unchanged" and resumed:
        return replace(outcome, status="ingested", reason="completed an interrupted attempt")
    return outcome


def embed_document(store: Store, embedder_factory: Callable[[], Embedder], doc_id: int) -> int:
    """Embeds the chunks of one document that lack vectors; returns how many."""
    done = 0
    while batch := store.chunks_missing_vectors(EMBED_BATCH, doc_id=doc_id):
        embedder = embedder_factory()
        vectors = embedder.embed_documents([text for _, text in batch])
        store.put_vectors([cid for cid, _ in batch], vectors, embedder.name)
        done += len(batch)
    return done
