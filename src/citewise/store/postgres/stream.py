"""The PostgreSQL store's streamed writes: a document too large to hold in memory is
inserted as a staged, loading version, its chunks appended batch by batch (each batch one
transaction), and only then made visible. Until then no search sees it; a run killed
meanwhile leaves a loading version the next ingest of its source removes."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

import psycopg

from citewise.types import ChunkedDocument, NewDocument

Conn = psycopg.Connection[tuple[Any, ...]]


class PostgresStreamWrites:
    """Mixed into `PostgresStore`, which owns the pool and the transactions."""

    def _tx(self) -> AbstractContextManager[Conn]:
        raise NotImplementedError

    def _collection_id(self, conn: Conn, name: str, *, create: bool = False) -> int | None:
        raise NotImplementedError

    def _settle(
        self, conn: Conn, cid: int, new: NewDocument, replaces: int | None
    ) -> tuple[int | None, int]:
        raise NotImplementedError

    def _insert_document(
        self,
        conn: Conn,
        cid: int,
        new: NewDocument,
        status: str,
        replaces: int | None,
        chunk_count: int,
        *,
        loading: bool = False,
    ) -> int:
        raise NotImplementedError

    def _insert_chunks(
        self, conn: Conn, doc_id: int, cid: int, title: str, chunks: ChunkedDocument
    ) -> int:
        raise NotImplementedError

    def _reuse_vectors(
        self, conn: Conn, doc_id: int, old_doc_id: int, first_chunk: int = 0
    ) -> None:
        raise NotImplementedError

    def begin_document(self, new: NewDocument, *, replaces: int | None = None) -> int | None:
        """Inserts `new` (its chunks are ignored) as a loading version, invisible to every
        search; None when the same version is stored already."""
        with self._tx() as conn:
            cid = self._collection_id(conn, new.collection, create=True)
            assert cid is not None
            replaces, existing = self._settle(conn, cid, new, replaces)
            if existing:
                return None
            return self._insert_document(conn, cid, new, "staged", replaces, 0, loading=True)

    def append_chunks(self, doc_id: int, chunks: ChunkedDocument) -> bool:
        """Appends whole parents with their children to a loading version (one
        transaction); False when that version is gone (another ingest of the source)."""
        with self._tx() as conn:
            row = conn.execute(
                "SELECT collection_id, title, replaces FROM documents"
                " WHERE id = %s AND loading FOR UPDATE",
                (doc_id,),
            ).fetchone()
            if row is None:
                return False
            cid, title, replaces = int(row[0]), str(row[1]), row[2]
            first = self._insert_chunks(conn, doc_id, cid, title, chunks)
            conn.execute(
                "UPDATE documents SET chunk_count = chunk_count + %s WHERE id = %s",
                (len(chunks.children), doc_id),
            )
            if replaces is not None and first:
                self._reuse_vectors(conn, doc_id, int(replaces), first)
        return True

    def complete_document(self, doc_id: int, *, page_count: int | None = None) -> bool:
        """Ends the loading: visible to keyword search at once, or, when a live version of
        its source exists, staged until `finalize()` swaps it in. False when it is gone."""
        with self._tx() as conn:
            row = conn.execute(
                "SELECT collection_id, source FROM documents WHERE id = %s", (doc_id,)
            ).fetchone()
            if row is None:
                return False
            # the source's lock first, as `_settle` takes it: no deadlock with its delete
            conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (row[0], row[1]))
            loading = conn.execute(
                "SELECT 1 FROM documents WHERE id = %s AND loading FOR UPDATE", (doc_id,)
            ).fetchone()
            if loading is None:
                return False
            live = conn.execute(
                "SELECT max(id) FROM documents WHERE collection_id = %s AND source = %s"
                " AND status <> 'staged'",
                (row[0], row[1]),
            ).fetchone()
            replaces = None if live is None else live[0]
            conn.execute(
                "UPDATE documents SET loading = false, status = %s, replaces = %s,"
                " page_count = %s WHERE id = %s",
                ("indexing" if replaces is None else "staged", replaces, page_count, doc_id),
            )
        return True
