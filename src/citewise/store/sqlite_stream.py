"""The SQLite store's streamed writes: a document too large to hold in memory is inserted
as a staged, loading version, its chunks appended batch by batch (each batch one
transaction), and only then made visible. Until then no search sees it; a run killed
meanwhile leaves a loading version the next ingest of its source removes."""

from __future__ import annotations

import json
import sqlite3
import time
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

    def _insert_chunks(self, doc_id: int, cid: int, title: str, chunks: ChunkedDocument) -> int:
        raise NotImplementedError

    def _reuse_vectors(self, doc_id: int, old_doc_id: int, first_chunk: int = 0) -> None:
        raise NotImplementedError

    def begin_document(self, new: NewDocument, *, replaces: int | None = None) -> int | None:
        """Inserts `new` (its chunks are ignored) as a loading version, invisible to every
        search; None when the same version is stored already."""
        with self._tx() as conn:
            cid = self._collection_id(new.collection, create=True)
            assert cid is not None
            replaces, existing = self._settle(cid, new, replaces)
            if existing:
                return None
            cur = conn.execute(
                "INSERT INTO documents(collection_id, source, title, format, category, tags,"
                " content_hash, mtime, size, status, replaces, page_count, chunk_count,"
                " ingested_at, pipeline, loading) VALUES (?,?,?,?,?,?,?,?,?,'staged',?,?,0,?,?,1)",
                (
                    cid, new.source, new.title, new.format, new.category,
                    json.dumps(new.tags), new.content_hash, new.mtime, new.size, replaces,
                    new.page_count, time.time(), new.pipeline,
                ),
            )  # fmt: skip
            return int(cur.lastrowid or 0)

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
