"""Small documents for the contract suites, chunked as ingest chunks them, and stand-in
vectors for them (no embedder needed)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from citewise.ingest.chunking import chunk_document
from citewise.retrieve.query import query_terms
from citewise.store.base import Store
from citewise.types import Block, NewDocument, ParsedDocument, SearchFilter
from citewise.types.vectors import Vectors

DIM = 8


def document_of(source: str, blocks: Sequence[Block], *, collection: str = "default",
                category: str = "", tags: tuple[str, ...] = (),
                digest: str = "h1") -> NewDocument:  # fmt: skip
    parsed = ParsedDocument(title=source, blocks=tuple(blocks), format="text")
    chunks = chunk_document(parsed, lambda t: len(t.split()))
    return NewDocument(
        collection=collection, source=source, title=source, format="text", category=category,
        tags=tags, content_hash=digest, mtime=0.0, size=sum(len(b.text) for b in blocks),
        page_count=None, chunks=chunks,
    )  # fmt: skip


def new_document(source: str, text: str, *, collection: str = "default", category: str = "",
                 tags: tuple[str, ...] = (), digest: str = "h1") -> NewDocument:  # fmt: skip
    """One section, "Top", holding `text`."""
    blocks = [Block(text, ("Top",))]
    return document_of(source, blocks, collection=collection, category=category, tags=tags,
                       digest=digest)  # fmt: skip


def unit_vector(seed: int) -> Vectors:
    v = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def embed_all(store: Store, seed: int = 0) -> None:
    missing = store.chunks_missing_vectors(1000)
    ids = [cid for cid, _ in missing]
    vecs = (
        np.stack([unit_vector(seed + cid) for cid in ids])
        if ids
        else np.zeros((0, DIM), np.float32)
    )
    store.put_vectors(ids, vecs, "test-embedder")
    store.finalize()


def keyword_sources(store: Store, q: str, **flt: object) -> list[str]:
    cands = store.keyword_search(query_terms(q), SearchFilter(**flt), 10)  # type: ignore[arg-type]
    return [r.source for r in store.get_chunks([c.chunk_id for c in cands])]


def put_missing_vectors(store: Store) -> None:
    """Vectors for every chunk that lacks one, without finalizing."""
    ids = [cid for cid, _ in store.chunks_missing_vectors(1000)]
    if ids:
        store.put_vectors(ids, np.stack([unit_vector(cid) for cid in ids]), "test-embedder")
