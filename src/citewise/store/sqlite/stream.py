"""The SQLite store's streamed writes: a document too large to hold in memory is inserted
as a staged, loading version, its chunks appended batch by batch (each batch one
transaction), and only then made visible. Until then no search sees it; a run killed
meanwhile leaves a loading version the next ingest of its source removes."""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager

from citewise.types import ChunkedDocument, NewDocument


class StreamWrites:
    """Mixed into `SQLiteStore`, which owns the connection and the write transaction."""

    @property
    def _conn(self) -> sqlite3.Connection:
        raise NotImplementedError

    def _tx(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def _collection_id(self, name: str, *, create: bool = False) -> int | None:
        raise NotImplementedError

    def _settle(self, cid: int, new: NewDocument, replaces: int | None) -> tuple[int | None, int]:
        raise NotImplementedError

    def _insert_document(
        self,
        cid: int,
        new: NewDocument,
        status: str,
        replaces: int | None,
        chunk_count: int,
        *,
        loading: bool = False,
    ) -> int:
        raise NotImplementedError

    def _insert_chunks(self, doc_id: int, cid: int, title: str, chunks: ChunkedDocument) -> int:
        raise NotImplementedError

    def _reuse_vectors(self, doc_id: int, old_doc_id: int, first_chunk: int = 0) -> None:
        raise NotImplementedError

    def begin_document(self, new: NewDocument, *, replaces: int | None = None) -> int | None:
        """Inserts `new` (its chunks are ignored) as a loading version, invisible to every
        search; None when the same version is stored already."""
        with self._tx():
            cid = self._collection_id(new.collection, create=True)
            assert cid is not None
            replaces, existing = self._settle(cid, new, replaces)
            if existing:
                return None
            return self._insert_document(cid, new, "staged", replaces, 0, loading=True)

    def append_chunks(self, doc_id: int, chunks: ChunkedDocument) -> bool:
        """Appends whole parents with their children to a loading version (one
        transaction); False when that version is gone (another ingest of the source)."""
        with self._tx() as conn:
            row = conn.execute(
                "SELECT collection_id, title, replaces FROM documents WHERE id = ? AND loading = 1",
                (doc_id,),
            ).fetchone()
            if row is None:
                return False
            cid, title, replaces = int(row[0]), str(row[1]), row[2]
            first = self._insert_chunks(doc_id, cid, title, chunks)
            conn.execute(
                "UPDATE documents SET chunk_count = chunk_count + ? WHERE id = ?",
                (len(chunks.children), doc_id),
            )
            if replaces is not None and first:
                self._reuse_vectors(doc_id, int(replaces), first)
        return True

    def complete_document(self, doc_id: int, *, page_count: int | None = None) -> bool:
        """Ends the loading: the version becomes visible to keyword search at once, or,
        when a live version of its source exists, stays staged until `finalize()` swaps it
        in. False when the loading version is gone."""
        with self._tx() as conn:
            row = conn.execute(
                "SELECT collection_id, source FROM documents WHERE id = ? AND loading = 1",
                (doc_id,),
            ).fetchone()
            if row is None:
                return False
            live = conn.execute(
                "SELECT max(id) FROM documents WHERE collection_id = ? AND source = ?"
                " AND status != 'staged'",
                (row[0], row[1]),
            ).fetchone()[0]
            conn.execute(
                "UPDATE documents SET loading = 0, status = ?, replaces = ?, page_count = ?"
                " WHERE id = ?",
                ("indexing" if live is None else "staged", live, page_count, doc_id),
            )
        return True
