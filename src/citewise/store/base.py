"""The Store protocol: documents, chunks, keyword + vector search, atomic replace/delete.

Visibility rules every backend follows:
- a document is `staged` while its replacement is being built: invisible to every search;
- `indexing`: visible to keyword search, vectors still being computed;
- `ready`: fully indexed. `finalize()` promotes documents whose chunks all have vectors and,
  for a staged replacement, deletes the version it replaces in the same transaction. A
  replacement's chunks whose embedded text the replaced version has keep its vectors.

Title and heading lookups are not part of it: see `store.lookups.HeadingLookups`. Capabilities a
backend may add: `StreamingStore` (a document in batches) and `HybridSearch` (keyword and
vector search fused in one round trip), `GraphHolder` (the knowledge graph beside the chunks).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from citewise.errors import StoreError
from citewise.graph.model import DocumentGraph, DocumentLink
from citewise.graph.store import GraphStore
from citewise.types import (
    Candidate,
    ChunkedDocument,
    ChunkRecord,
    DocumentFields,
    DocumentInfo,
    NewDocument,
    SearchFilter,
)
from citewise.types.vectors import Vectors

log = logging.getLogger(__name__)


class Store(Protocol):
    def close(self) -> None: ...

    def collections(self) -> list[str]: ...

    def collection_root(self, collection: str) -> str | None:
        """The folder the collection's sources are relative to (None: none recorded yet);
        a source outside it is an absolute path (docs/identity.md)."""
        ...

    def record_root(self, collection: str, root: str) -> str:
        """Records `root` unless the collection has one (which stays); the recorded root."""
        ...

    def schema_version(self) -> tuple[int, int]:
        """(the store's schema version, the latest this release knows); equal once open."""
        ...

    def reindex_reason(self) -> str | None:
        """Why stored documents must be re-parsed or re-embedded (`citewise reindex`), as a
        migration recorded it; None when nothing waits."""
        ...

    def clear_reindex(self) -> None: ...

    def vectors_embedder(self) -> str | None:
        """The embedder the stored vectors were made by (None: none stored yet)."""
        ...

    def forget_vectors(self) -> None:
        """Drops every vector in one transaction, so another embedder can make them anew
        (`citewise reindex --new-embedder`); documents are found by keyword meanwhile."""
        ...

    def find_document(self, collection: str, source: str) -> DocumentInfo | None:
        """The visible (indexing or ready) version of `source`, if any."""
        ...

    def find_staged(self, collection: str, source: str) -> DocumentInfo | None: ...

    def add_document(self, new: NewDocument, *, replaces: int | None = None) -> int:
        """Inserts a version. With `replaces`, it is staged until `finalize()` swaps it in;
        without, it is visible to keyword search at once. Another process may have stored
        the source meanwhile: the same version is not added twice (its id is returned), and
        a different one becomes a staged replacement of the live version."""
        ...

    def snapshot(self) -> AbstractContextManager[None]:
        """Reads inside see one consistent state of the store (one search's queries)."""
        ...

    def delete_document(self, doc_id: int) -> None:
        """Removes a document from every index in one transaction."""
        ...

    def list_documents(self, collection: str) -> list[DocumentInfo]:
        """Visible (indexing or ready) documents, by source."""
        ...

    def describe_document(self, doc_id: int, fields: DocumentFields) -> None:
        """Stores what a document says about itself (`DocumentInfo.fields`), for a version
        stored before documents were described."""
        ...

    def has_documents(self, collection: str) -> bool:
        """Whether any document of the collection is searchable."""
        ...

    def chunks_missing_vectors(
        self, limit: int, after_id: int = 0, *, doc_id: int | None = None
    ) -> list[tuple[int, str]]:
        """(chunk_id, embed_text) of chunks with no vector yet, ascending id > after_id;
        with `doc_id`, only that document's."""
        ...

    def count_missing_vectors(self) -> int: ...

    def put_vectors(
        self,
        chunk_ids: Sequence[int],
        vectors: Vectors,
        embedder: str,
        *,
        texts: Sequence[str] | None = None,
    ) -> None:
        """With `texts` (the embedded texts), a vector is kept only where the chunk still
        holds that text: a chunk deleted meanwhile may have handed its id to a new one."""
        ...

    def share_vectors(self, chunk_ids: Sequence[int]) -> list[int]:
        """Those of `chunk_ids` lacking a vector take the stored vector of a chunk whose
        embedded text is the same after whitespace (any document, any collection: one
        store, one embedder); returns the ids that now have one, the rest are to embed."""
        ...

    def finalize(self) -> list[int]:
        """Promotes fully embedded documents to ready; returns their ids."""
        ...

    def keyword_search(self, terms: Sequence[str], flt: SearchFilter, k: int) -> list[Candidate]:
        """BM25 ranking of the chunks holding any of `terms` (plain words, OR-ed; each is
        tokenized as `store.terms.index_tokens` does). Scores are higher for better."""
        ...

    def vector_search(self, query: Vectors, flt: SearchFilter, k: int) -> list[Candidate]: ...

    def get_chunks(
        self, chunk_ids: Sequence[int], *, with_parents: bool = False
    ) -> list[ChunkRecord]: ...

    def get_vectors(self, chunk_ids: Sequence[int]) -> dict[int, Vectors]:
        """Stored vectors by chunk id; chunks without one are left out."""
        ...

    def document_chunks(self, doc_id: int) -> list[ChunkRecord]:
        """Every chunk of a document in reading order, with parent texts."""
        ...

    def document_texts(self, doc_id: int, limit: int | None = None) -> list[tuple[int, str, str]]:
        """Every chunk of a document (the first `limit`) in reading order as (id, text,
        section path): what reading its text needs, without the parents and line boxes of
        `document_chunks`."""
        ...

    def preceding_chunks(self, chunk_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        """For each chunk id, the chunk just before it in its document (reading order);
        first chunks and unknown ids are left out."""
        ...

    def following_chunks(self, chunk_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        """For each chunk id, the chunk just after it in its document (reading order);
        last chunks and unknown ids are left out."""
        ...

    def chunks_before_parents(self, parent_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        """For each parent id, the chunk just before the parent's first chunk in its
        document; parents that open their document and unknown ids are left out."""
        ...

    def chunks_after_parents(self, parent_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        """For each parent id, the chunk just after the parent's last chunk in its
        document; parents that close their document and unknown ids are left out."""
        ...

    def stats(self) -> dict[str, int]: ...


@runtime_checkable
class StreamingStore(Protocol):
    """A store that takes a document in batches (a text file too large to hold in memory).
    The version stays invisible to every search until `complete_document`; a run killed
    before leaves a loading version that the next ingest of its source removes."""

    def begin_document(self, new: NewDocument, *, replaces: int | None = None) -> int | None:
        """A new loading version of `new` (its chunks are ignored); None when the same
        version is stored already."""
        ...

    def append_chunks(self, doc_id: int, chunks: ChunkedDocument) -> bool:
        """Appends whole parents with their children; False when the loading version is
        gone (another ingest of the same source replaced it)."""
        ...

    def complete_document(self, doc_id: int, *, page_count: int | None = None) -> bool:
        """Makes the version visible (or staged as a replacement); False when it is gone."""
        ...


# -- hybrid search: an optional capability ---------------------------------------------
# A backend that ranks keywords and vectors and fuses both lists with reciprocal rank fusion
# in one round trip implements `HybridSearch`. Its result must equal what the two plain
# searches fused by `retrieve.fusion.reciprocal_rank_fusion` give (the contract test compares
# them): score Σ w / (rrf_k + rank), ties by best single rank, then chunk id.


@dataclass(frozen=True, slots=True)
class FusedCandidate:
    chunk_id: int
    score: float
    keyword_rank: int | None
    vector_rank: int | None


@dataclass(frozen=True, slots=True)
class HybridRanking:
    """Each list as `keyword_search` / `vector_search` return it, and their fusion."""

    keyword: list[Candidate]
    vector: list[Candidate]
    fused: list[FusedCandidate]


@dataclass(frozen=True, slots=True)
class HybridQuery:
    terms: Sequence[str]  # as `keyword_search` takes them
    vector: Vectors
    keyword_k: int
    vector_k: int
    rrf_k: int = 60
    keyword_weight: float = 1.0
    vector_weight: float = 1.0


@runtime_checkable
class HybridSearch(Protocol):
    def hybrid_search(self, query: HybridQuery, flt: SearchFilter) -> HybridRanking: ...


# -- the knowledge graph: an optional capability ---------------------------------------
@runtime_checkable
class GraphHolder(Protocol):
    """A store that keeps each document's knowledge graph beside its chunks: the graph rows
    reference the document, so deleting or replacing a version deletes its graph."""

    def replace_graph(self, doc_id: int, graph: DocumentGraph) -> list[DocumentLink]:
        """Replaces `doc_id`'s graph (its collection, title and source are the store's) and
        recomputes its links in one transaction; no links when the document is gone."""
        ...

    def graph_store(self) -> GraphStore:
        """The collection-scoped reads of every stored graph."""
        ...


def warn_if_reindex_needed(store: Store, where: str) -> None:
    """Says, at open, that a migration left work for `citewise reindex` (answers meanwhile
    come from what is still valid: re-parsed documents keep their old version, documents
    without vectors are found by keyword only)."""
    reason = store.reindex_reason()
    if reason:
        log.warning("the store at %s needs `citewise reindex`: %s", where, reason)


def check_batch(chunk_ids: Sequence[int], vectors: Vectors, texts: Sequence[str] | None) -> None:
    """`put_vectors`' arguments agree in length, or StoreError."""
    if len(chunk_ids) != vectors.shape[0] or (texts is not None and len(texts) != len(chunk_ids)):
        raise StoreError("put_vectors: ids, vectors and texts differ in length")
