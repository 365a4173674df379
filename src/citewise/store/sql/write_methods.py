"""The write methods of `Store` and `StreamingStore`, written once for both databases: each
runs one write transaction of the backend's, on its `WriteConn`."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from citewise.store.sql import stream, writes
from citewise.store.sql.connection import WriteConn
from citewise.types import ChunkedDocument, DocumentFields, NewDocument


class WriteMethods:
    """`transaction()` opens one write transaction (committed when the block ends, rolled
    back when it raises) and gives its connection."""

    def __init__(self, transaction: Callable[[], AbstractContextManager[WriteConn]]) -> None:
        self._write = transaction

    def add_document(self, new: NewDocument, *, replaces: int | None = None) -> int:
        with self._write() as conn:
            return writes.add_document(conn, new, replaces=replaces)

    def delete_document(self, doc_id: int) -> None:
        with self._write() as conn:
            writes.delete_document(conn, doc_id)

    def describe_document(self, doc_id: int, fields: DocumentFields) -> None:
        with self._write() as conn:
            writes.describe_document(conn, doc_id, fields)

    def finalize(self) -> list[int]:
        with self._write() as conn:
            return writes.finalize(conn)

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
