"""The scale-out store: PostgreSQL with pgvector, shared by any number of API and worker
processes. Thread-safe: each call takes a connection from the pool.

Keyword search is BM25 over a GIN-indexed tsvector (`postgres_search`), vector search an
HNSW index with iterative scans so a per-collection filter keeps its recall; replace and
delete change both indexes in one transaction (chunks and their vectors go together).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector

from citewise.db.postgres import migrated_pool
from citewise.errors import StoreConnectionError, StoreError
from citewise.store.postgres.hybrid import PostgresHybrid
from citewise.store.postgres.reads import DOC_COLUMNS, PostgresReads, doc_info
from citewise.store.postgres.schema import MIGRATIONS, partition_sql
from citewise.store.postgres.search import configure_search
from citewise.store.postgres.stream import PostgresStreamWrites
from citewise.store.postgres.tsvector import tsvector_literal
from citewise.store.postgres.vectors import PostgresVectorWrites
from citewise.text.urls import redact_url
from citewise.types import ChunkedDocument, DocumentInfo, NewDocument

Conn = psycopg.Connection[tuple[Any, ...]]


class PostgresStore(PostgresReads, PostgresHybrid, PostgresStreamWrites, PostgresVectorWrites):
    def __init__(self, url: str, *, pool_size: int = 4) -> None:
        self.url = url
        self._collection_ids: dict[str, int] = {}
        self._local = threading.local()
        try:
            self._pool = migrated_pool(
                url, MIGRATIONS, name="citewise-store", size=pool_size, configure=_configure
            )
        except psycopg.Error as exc:
            raise StoreError(f"cannot open the PostgreSQL store {redact_url(url)}: {exc}") from exc

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def _conn(self) -> Iterator[Conn]:
        pinned: Conn | None = getattr(self._local, "conn", None)
        try:
            if pinned is not None:  # inside `snapshot()` on this thread
                yield pinned
                return
            with self._pool.connection() as conn:
                yield conn
        except psycopg.errors.UniqueViolation as exc:
            raise StoreError(f"a concurrent writer stored this document first: {exc}") from exc
        except psycopg.OperationalError as exc:  # the session was cut: nothing was committed
            raise StoreConnectionError(f"PostgreSQL store: {exc}") from exc
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL store: {exc}") from exc

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside (on this thread) see one state of the store: one connection in a
        repeatable-read transaction, so a replace committed meanwhile cannot remove chunks a
        ranking already named."""
        if getattr(self._local, "conn", None) is not None:
            yield
            return
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                self._local.conn = conn
                try:
                    yield
                finally:
                    self._local.conn = None
        except psycopg.OperationalError as exc:
            raise StoreConnectionError(f"PostgreSQL store: {exc}") from exc
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL store: {exc}") from exc

    @contextmanager
    def _tx(self) -> Iterator[Conn]:
        with self._conn() as conn, conn.transaction():
            yield conn

    def collections(self) -> list[str]:
        with self._conn() as conn:
            return [r[0] for r in conn.execute("SELECT name FROM collections ORDER BY name")]

    def _collection_id(self, conn: Conn, name: str, *, create: bool = False) -> int | None:
        row = conn.execute("SELECT id FROM collections WHERE name = %s", (name,)).fetchone()
        if row is not None or not create:
            return None if row is None else int(row[0])
        created = conn.execute(
            "INSERT INTO collections(name, created_at) VALUES (%s, %s)"
            " ON CONFLICT (name) DO NOTHING RETURNING id",
            (name, time.time()),
        ).fetchone()
        if created is not None:
            conn.execute(partition_sql(int(created[0])))
        return self._collection_id(conn, name)

    # -- documents -------------------------------------------------------------------

    def _find(self, collection: str, source: str, staged: bool) -> DocumentInfo | None:
        with self._conn() as conn:
            row = conn.execute(
                f"SELECT {DOC_COLUMNS} FROM documents d JOIN collections c"
                " ON c.id = d.collection_id WHERE c.name = %s AND d.source = %s"
                f" AND d.status {'=' if staged else '<>'} 'staged'"
                f"{' AND NOT d.loading' if staged else ''} ORDER BY d.id DESC LIMIT 1",
                (collection, source),
            ).fetchone()
        return None if row is None else doc_info(row)

    def find_document(self, collection: str, source: str) -> DocumentInfo | None:
        return self._find(collection, source, staged=False)

    def find_staged(self, collection: str, source: str) -> DocumentInfo | None:
        return self._find(collection, source, staged=True)

    def _settle(
        self, conn: Conn, cid: int, new: NewDocument, replaces: int | None
    ) -> tuple[int | None, int]:
        """What another process did to this source since the caller looked decides: the same
        version stored already (its id, nothing to add), or the live version to replace.
        Older staged versions give way. Returns (replaces, existing id or 0). Serialised
        per source by an advisory lock held to the end of the transaction."""
        conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (cid, new.source))
        rows = conn.execute(
            "SELECT id, content_hash, pipeline, status, loading FROM documents"
            " WHERE collection_id = %s AND source = %s ORDER BY id",
            (cid, new.source),
        ).fetchall()
        for doc_id, digest, pipeline, _, loading in rows:
            if digest == new.content_hash and pipeline == new.pipeline and not loading:
                return replaces, int(doc_id)
        for doc_id, *_rest, status, _ in rows:
            if status == "staged":
                conn.execute("DELETE FROM documents WHERE id = %s", (doc_id,))
        live = [int(r[0]) for r in rows if r[3] != "staged"]
        return (live[0] if live else None), 0

    def add_document(self, new: NewDocument, *, replaces: int | None = None) -> int:
        """Another process may have stored the source meanwhile: the same version is not
        added twice (its id is returned), and a different one becomes a staged replacement
        of the live version."""
        with self._tx() as conn:
            cid = self._collection_id(conn, new.collection, create=True)
            assert cid is not None
            replaces, existing = self._settle(conn, cid, new, replaces)
            if existing:
                return existing
            status = "staged" if replaces is not None else "indexing"
            doc_id = self._insert_document(
                conn, cid, new, status, replaces, len(new.chunks.children)
            )
            self._insert_chunks(conn, doc_id, cid, new.title, new.chunks)
            if replaces is not None:
                self._reuse_vectors(conn, doc_id, replaces)
        return doc_id

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
        """The document row of `new` (inside the caller's transaction); returns its id."""
        row = conn.execute(
            "INSERT INTO documents(collection_id, source, title, format, category, tags,"
            " content_hash, mtime, size, status, replaces, page_count, chunk_count,"
            " ingested_at, pipeline, loading) VALUES"
            " (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
            (
                cid, new.source, new.title, new.format, new.category, list(new.tags),
                new.content_hash, new.mtime, new.size, status, replaces, new.page_count,
                chunk_count, time.time(), new.pipeline, loading,
            ),
        ).fetchone()  # fmt: skip
        assert row is not None
        return int(row[0])

    def _insert_chunks(
        self, conn: Conn, doc_id: int, cid: int, title: str, chunks: ChunkedDocument
    ) -> int:
        """Inserts parents and chunks (with their keyword vectors); returns the smallest new
        chunk id (0: none). A child's parent is among `chunks.parents` (by ordinal)."""
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO parents(doc_id, ordinal, text, section, page_start, page_end)"
                " VALUES (%s,%s,%s,%s,%s,%s) RETURNING id",
                [
                    (doc_id, p.ordinal, p.text, p.section, p.page_start, p.page_end)
                    for p in chunks.parents
                ],
                returning=True,
            )
            parent_ids: dict[int, int] = {}
            ordinals = iter(p.ordinal for p in chunks.parents)
            while True:
                got = cur.fetchone()
                if got is not None:
                    parent_ids[next(ordinals)] = int(got[0])
                if not cur.nextset():
                    break
            cur.executemany(
                "INSERT INTO chunks(doc_id, parent_id, collection_id, ordinal, text,"
                " embed_text, section, page_start, page_end, content_hash, tsv, n_tokens)"
                " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s::tsvector,%s) RETURNING id",
                [
                    (
                        doc_id, parent_ids[ch.parent_ordinal], cid, ch.ordinal, ch.text,
                        ch.embed_text, ch.section, ch.page_start, ch.page_end,
                        ch.content_hash, *tsvector_literal(title, ch.section, ch.text),
                    )
                    for ch in chunks.children
                ],
                returning=True,
            )  # fmt: skip
            first = 0
            while True:
                got = cur.fetchone()
                if got is not None:
                    first = min(first or int(got[0]), int(got[0]))
                if not cur.nextset():
                    break
        return first

    def _reuse_vectors(
        self, conn: Conn, doc_id: int, old_doc_id: int, first_chunk: int = 0
    ) -> None:
        """A new version's chunks (from id `first_chunk` on) whose embedded text the old
        version has take its vectors; equal texts are looked up by hash."""
        conn.execute(
            "INSERT INTO vectors(chunk_id, collection_id, embedding)"
            " SELECT DISTINCT ON (n.id) n.id, n.collection_id, v.embedding FROM chunks n"
            " JOIN chunks o ON o.doc_id = %s AND o.content_hash = n.content_hash"
            " AND o.embed_text = n.embed_text"
            " JOIN vectors v ON v.chunk_id = o.id"
            " WHERE n.doc_id = %s AND n.id >= %s AND NOT n.has_vector ORDER BY n.id",
            (old_doc_id, doc_id, first_chunk),
        )
        conn.execute(
            "UPDATE chunks SET has_vector = true WHERE doc_id = %s AND id >= %s"
            " AND NOT has_vector"
            " AND EXISTS (SELECT 1 FROM vectors WHERE vectors.chunk_id = chunks.id)",
            (doc_id, first_chunk),
        )

    def delete_document(self, doc_id: int) -> None:
        with self._tx() as conn:  # parents, chunks (keyword index) and vectors cascade
            conn.execute("DELETE FROM documents WHERE id = %s", (doc_id,))

    def list_documents(self, collection: str) -> list[DocumentInfo]:
        return self._documents("c.name = %s AND d.status <> 'staged'", [collection])

    def _documents(self, where: str, params: Sequence[object]) -> list[DocumentInfo]:
        with self._conn() as conn:
            rows = conn.execute(
                f"SELECT {DOC_COLUMNS} FROM documents d JOIN collections c"
                f" ON c.id = d.collection_id WHERE {where} ORDER BY d.source",
                params,
            ).fetchall()
        return [doc_info(r) for r in rows]

    def has_documents(self, collection: str) -> bool:
        with self._conn() as conn:
            row = conn.execute(
                "SELECT 1 FROM documents d JOIN collections c ON c.id = d.collection_id"
                " WHERE c.name = %s AND d.status <> 'staged' LIMIT 1",
                (collection,),
            ).fetchone()
        return row is not None

    def finalize(self) -> list[int]:
        with self._tx() as conn:
            # a document another process is finalizing is left to it
            done = conn.execute(
                "SELECT id, replaces FROM documents d WHERE status <> 'ready' AND NOT loading"
                " AND NOT EXISTS"
                " (SELECT 1 FROM chunks c WHERE c.doc_id = d.id AND NOT c.has_vector)"
                " ORDER BY id FOR UPDATE SKIP LOCKED"
            ).fetchall()
            for doc_id, replaces in done:
                if replaces is not None:
                    conn.execute("DELETE FROM documents WHERE id = %s", (replaces,))
                conn.execute(
                    "UPDATE documents SET status = 'ready', replaces = NULL WHERE id = %s",
                    (doc_id,),
                )
        return [int(d[0]) for d in done]

    def stats(self) -> dict[str, int]:
        with self._conn() as conn:
            row = conn.execute(
                "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM parents),"
                " (SELECT count(*) FROM chunks), (SELECT count(*) FROM vectors)"
            ).fetchone()
        assert row is not None
        return dict(zip(("documents", "parents", "chunks", "vectors"), map(int, row), strict=True))


def _configure(conn: Conn) -> None:
    register_vector(conn)
    configure_search(conn)
