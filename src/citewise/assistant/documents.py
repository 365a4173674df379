"""Documents and passages through the facade: listing, finding, deleting, the stored
collections, a passage and its document's passages, and the store's health."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from citewise.assistant.base import FacadeBase
from citewise.errors import NotFoundError
from citewise.ingest.identity import collection_root
from citewise.ingest.originals import forget_original
from citewise.text.urls import scheme
from citewise.types import DocumentInfo
from citewise.types.search import ChunkRecord


@dataclass(frozen=True)
class Health:
    """What the process runs on; reading it asks the store once (a dead store raises)."""

    store: str  # the store URL's scheme: sqlite, postgresql, …
    schema_version: int
    reindex: str | None  # why the store waits for `citewise reindex` (docs/upgrades.md)
    llm: str
    embedder: str


class DocumentMethods(FacadeBase):
    def documents(self, *, collection: str | None = None) -> list[DocumentInfo]:
        return self._store().list_documents(collection or self.collection)

    def document(self, source: str, *, collection: str | None = None) -> DocumentInfo:
        coll = collection or self.collection
        doc = self._store().find_document(coll, source)
        if doc is None:
            raise NotFoundError(f"no document '{source}' in collection '{coll}'")
        return doc

    def find_document(self, source: str, *, collection: str | None = None) -> DocumentInfo | None:
        return self._store().find_document(collection or self.collection, source)

    def find_by_hash(
        self, content_hash: str, *, collection: str | None = None
    ) -> DocumentInfo | None:
        return next(
            (d for d in self.documents(collection=collection) if d.content_hash == content_hash),
            None,
        )

    def source_taken(self, source: str, *, collection: str | None = None) -> bool:
        """Whether a document of the collection, stored or still staged, has this source."""
        store, coll = self._store(), collection or self.collection
        return (
            store.find_document(coll, source) is not None
            or store.find_staged(coll, source) is not None
        )

    def delete(self, source: str, *, collection: str | None = None) -> DocumentInfo:
        coll = collection or self.collection
        doc = self.document(source, collection=coll)
        store = self._store()
        store.delete_document(doc.doc_id)
        staged = store.find_staged(coll, source)
        if staged is not None:
            store.delete_document(staged.doc_id)
        if not any(
            d.content_hash == doc.content_hash
            for c in store.collections()
            for d in store.list_documents(c)
        ):  # a deleted document's kept copy goes too, unless another document has its bytes
            forget_original(self.settings.originals_dir, doc.content_hash)
        return doc

    def collections(self) -> list[str]:
        """The collections that hold documents (or held them)."""
        return self._store().collections()

    def require_collection(self, name: str) -> str:
        """`name`, when documents were ingested into it or it was created (`POST
        /collections`); else `NotFoundError`: a mistyped collection is the same error on every
        door, never an empty answer nor one from another collection."""
        if name in self._store().collections() or any(
            c.name == name for c in self._parts.auth_store.get().list_collections()
        ):
            return name
        raise NotFoundError(f"no collection '{name}': ingest documents into it first")

    def source_root(self, paths: Sequence[Path], *, collection: str | None = None) -> Path | None:
        """The folder the collection's sources are named from, recorded now from `paths`
        when it has none (for a sender that names files for other processes)."""
        return collection_root(self._store(), collection or self.collection, paths)

    def passages(self, chunk_ids: Sequence[int]) -> list[ChunkRecord]:
        """The stored passages of these ids (an id no longer stored is left out)."""
        return self._store().get_chunks(chunk_ids)

    def document_passages(self, doc_id: int) -> list[ChunkRecord]:
        """A document's passages in reading order."""
        return self._store().document_chunks(doc_id)

    def missing_vectors(self) -> int:
        """Passages stored without a vector yet (`citewise reindex` embeds them)."""
        return self._store().count_missing_vectors()

    def stats(self) -> dict[str, int]:
        """The store's counts (documents, chunks, …) over every collection."""
        return self._store().stats()

    def health(self) -> Health:
        store, s = self._store(), self.settings
        store.collections()  # the store answers
        return Health(
            store=scheme(s.store_url),
            schema_version=store.schema_version()[0],
            reindex=store.reindex_reason(),
            llm=s.llm or "extractive",
            embedder=s.embedder,
        )
