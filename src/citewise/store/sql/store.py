"""The methods of `Store` and `StreamingStore` written once over the shared SQL: reads on a
backend's `ReadConn`, writes each in one write transaction of the backend's, on its
`WriteConn`. A backend's store subclasses `SqlStore` and adds what differs: connections and
transactions, the snapshot, searches, storing vectors and reading the graph."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

from citewise.graph.model import DocumentGraph, DocumentLink
from citewise.store.sql import reads, stream, writes
from citewise.store.sql.connection import ReadConn, WriteConn
from citewise.types import ChunkedDocument, ChunkRecord, DocumentFields, DocumentInfo, NewDocument


class SqlStore:
    """`connection()` gives a connection for reads (the snapshot's, inside one);
    `transaction()` opens one write transaction (committed when the block ends, rolled
    back when it raises) and gives its connection."""

    def __init__(
        self,
        connection: Callable[[], AbstractContextManager[ReadConn]],
        transaction: Callable[[], AbstractContextManager[WriteConn]],
    ) -> None:
        self._read = connection
        self._write = transaction

    # -- documents -------------------------------------------------------------------

    def collections(self) -> list[str]:
        with self._read() as conn:
            return reads.collections(conn)

    def collection_root(self, collection: str) -> str | None:
        with self._read() as conn:
            return reads.collection_root(conn, collection)

    def record_root(self, collection: str, root: str) -> str:
        with self._write() as conn:
            return writes.record_root(conn, collection, root)

    def reindex_reason(self) -> str | None:
        with self._read() as conn:
            return reads.meta(conn, "reindex")

    def vectors_embedder(self) -> str | None:
        with self._read() as conn:
            return reads.meta(conn, "embedder")

    def forget_vectors(self) -> None:
        with self._write() as conn:
            writes.forget_vectors(conn)

    def clear_reindex(self) -> None:
        with self._write() as conn:
            conn.execute("DELETE FROM meta WHERE key = 'reindex'")

    def find_document(self, collection: str, source: str) -> DocumentInfo | None:
        with self._read() as conn:
            return reads.find_document(conn, collection, source)

    def find_staged(self, collection: str, source: str) -> DocumentInfo | None:
        with self._read() as conn:
            return reads.find_staged(conn, collection, source)

    def list_documents(self, collection: str) -> list[DocumentInfo]:
        with self._read() as conn:
            return reads.list_documents(conn, collection)

    def documents_titled(self, collection: str, prefix: str) -> list[DocumentInfo]:
        with self._read() as conn:
            return reads.documents_titled(conn, collection, prefix)

    def has_documents(self, collection: str) -> bool:
        with self._read() as conn:
            return reads.has_documents(conn, collection)

    def stats(self) -> dict[str, int]:
        with self._read() as conn:
            return reads.stats(conn)

    def add_document(self, new: NewDocument, *, replaces: int | None = None) -> int:
        with self._write() as conn:
            return writes.add_document(conn, new, replaces=replaces)

    def delete_document(self, doc_id: int) -> None:
        with self._write() as conn:
            writes.delete_document(conn, doc_id)

    def describe_document(self, doc_id: int, fields: DocumentFields) -> None:
        with self._write() as conn:
            writes.describe_document(conn, doc_id, fields)

    def share_vectors(self, chunk_ids: Sequence[int]) -> list[int]:
        with self._write() as conn:
            return writes.share_vectors(conn, chunk_ids)

    def finalize(self) -> list[int]:
        with self._write() as conn:
            return writes.finalize(conn)

    # -- the knowledge graph (`GraphHolder`) --------------------------------------------

    def replace_graph(self, doc_id: int, graph: DocumentGraph) -> list[DocumentLink]:
        with self._write() as conn:
            return writes.replace_graph(conn, doc_id, graph)

    # -- streamed documents (`StreamingStore`) -----------------------------------------

    def begin_document(self, new: NewDocument, *, replaces: int | None = None) -> int | None:
        with self._write() as conn:
            return stream.begin_document(conn, new, replaces=replaces)

    def append_chunks(self, doc_id: int, chunks: ChunkedDocument) -> bool:
        with self._write() as conn:
            return stream.append_chunks(conn, doc_id, chunks)

    def complete_document(self, doc_id: int, *, page_count: int | None = None) -> bool:
        with self._write() as conn:
            return stream.complete_document(conn, doc_id, page_count=page_count)

    # -- vectors ---------------------------------------------------------------------

    def chunks_missing_vectors(
        self, limit: int, after_id: int = 0, *, doc_id: int | None = None
    ) -> list[tuple[int, str]]:
        with self._read() as conn:
            return reads.chunks_missing_vectors(conn, limit, after_id, doc_id=doc_id)

    def count_missing_vectors(self) -> int:
        with self._read() as conn:
            return reads.count_missing_vectors(conn)

    # -- chunks ----------------------------------------------------------------------

    def get_chunks(
        self, chunk_ids: Sequence[int], *, with_parents: bool = False
    ) -> list[ChunkRecord]:
        if not chunk_ids:
            return []
        with self._read() as conn:
            return reads.get_chunks(conn, chunk_ids, with_parents=with_parents)

    def document_chunks(self, doc_id: int) -> list[ChunkRecord]:
        with self._read() as conn:
            return reads.document_chunks(conn, doc_id)

    def document_texts(self, doc_id: int, limit: int | None = None) -> list[tuple[int, str, str]]:
        with self._read() as conn:
            return reads.document_texts(conn, doc_id, limit)

    def preceding_chunks(self, chunk_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        if not chunk_ids:
            return {}
        with self._read() as conn:
            return reads.preceding_chunks(conn, chunk_ids)

    def following_chunks(self, chunk_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        if not chunk_ids:
            return {}
        with self._read() as conn:
            return reads.following_chunks(conn, chunk_ids)

    def chunks_before_parents(self, parent_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        if not parent_ids:
            return {}
        with self._read() as conn:
            return reads.chunks_before_parents(conn, parent_ids)

    def chunks_after_parents(self, parent_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        if not parent_ids:
            return {}
        with self._read() as conn:
            return reads.chunks_after_parents(conn, parent_ids)
