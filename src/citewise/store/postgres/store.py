"""The scale-out store: PostgreSQL with pgvector, shared by any number of API and worker
processes. Thread-safe: each call takes a connection from the pool.

Keyword search is BM25 over a GIN-indexed tsvector (`search`), vector search an HNSW index
with iterative scans so a per-collection filter keeps its recall; replace and delete change
both indexes in one transaction (chunks and their vectors go together). `PostgresStore`
owns the pool, the transactions and the snapshot; the searches and vectors are functions over
a connection in `search`, `hybrid`, `vectors` and `reads`, the documents and chunks those of
`store.sql` (`SqlStore`) over `reads.PostgresReads` and `writes.PostgresWrites`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector

from citewise.db.postgres import migrated_pool
from citewise.errors import StoreConnectionError, StoreError
from citewise.graph.checkout import CheckoutGraphStore
from citewise.graph.postgres import PostgresGraphStore
from citewise.graph.store import GraphStore
from citewise.store.base import HybridQuery, HybridRanking, check_batch, warn_if_reindex_needed
from citewise.store.postgres import hybrid, reads, search
from citewise.store.postgres import vectors as vector_writes
from citewise.store.postgres.reads import PostgresReads
from citewise.store.postgres.schema import MIGRATIONS, SCHEMA_VERSION, schema_version
from citewise.store.postgres.search import EF_SEARCH, configure_search
from citewise.store.postgres.writes import PostgresWrites
from citewise.store.sql.connection import ReadConn, WriteConn
from citewise.store.sql.labels import label_unlabelled
from citewise.store.sql.store import SqlStore
from citewise.text.urls import redact_url
from citewise.types import Candidate, SearchFilter
from citewise.types.vectors import Vectors

Conn = psycopg.Connection[tuple[Any, ...]]


class PostgresStore(SqlStore):
    ef_search: int = EF_SEARCH  # HNSW's candidate list per query; a deeper search asks for 2k

    def __init__(self, url: str, *, pool_size: int = 4) -> None:
        super().__init__(self._reads, self._writes)
        self.url = url
        # name → id; a collection keeps its id for the life of the database
        self._collection_ids: dict[str, int] = {}
        self._local = threading.local()
        try:
            self._pool = migrated_pool(
                url, MIGRATIONS, name="citewise-store", size=pool_size, configure=_configure
            )
        except psycopg.Error as exc:
            raise StoreError(f"cannot open the PostgreSQL store {redact_url(url)}: {exc}") from exc
        try:
            self.schema_version()
        except StoreError:
            self._pool.close()
            raise
        with self._writes() as conn:  # chunks stored before labels (or by an older release)
            label_unlabelled(conn)
        warn_if_reindex_needed(self, redact_url(url))

    def close(self) -> None:
        self._pool.close()

    def schema_version(self) -> tuple[int, int]:
        with self._conn() as conn:
            names = [r[0] for r in conn.execute("SELECT name FROM citewise_migrations")]
        return schema_version(names), SCHEMA_VERSION

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

    @contextmanager
    def _reads(self) -> Iterator[ReadConn]:
        with self._conn() as conn:
            yield PostgresReads(conn)

    @contextmanager
    def _writes(self) -> Iterator[WriteConn]:
        with self._tx() as conn:
            yield PostgresWrites(conn)

    # -- the knowledge graph (`GraphHolder`) --------------------------------------------

    def graph_store(self) -> GraphStore:
        return CheckoutGraphStore(self._graph_checkout)

    @contextmanager
    def _graph_checkout(self) -> Iterator[GraphStore]:
        with self._conn() as conn:
            yield PostgresGraphStore(conn)

    # -- vectors ---------------------------------------------------------------------

    def put_vectors(
        self,
        chunk_ids: Sequence[int],
        vectors: Vectors,
        embedder: str,
        *,
        texts: Sequence[str] | None = None,
    ) -> None:
        """With `texts` (the embedded texts), a vector is kept only where the chunk still
        holds that text."""
        check_batch(chunk_ids, vectors, texts)
        if not chunk_ids:
            return
        with self._tx() as conn:
            vector_writes.put_vectors(conn, chunk_ids, vectors, embedder, texts=texts)

    def get_vectors(self, chunk_ids: Sequence[int]) -> dict[int, Vectors]:
        if not chunk_ids:
            return {}
        with self._conn() as conn:
            return reads.get_vectors(conn, chunk_ids)

    # -- searches --------------------------------------------------------------------

    def keyword_search(self, terms: Sequence[str], flt: SearchFilter, k: int) -> list[Candidate]:
        with self._conn() as conn:
            return search.keyword_search(conn, self._collection_ids, terms, flt, k)

    def vector_search(self, query: Vectors, flt: SearchFilter, k: int) -> list[Candidate]:
        if k < 1:
            return []
        with self._conn() as conn:
            return search.vector_search(
                conn, self._collection_ids, query, flt, k, ef_search=self.ef_search
            )

    def heading_search(self, name: str, flt: SearchFilter, k: int) -> list[Candidate]:
        with self._conn() as conn:
            return search.heading_search(conn, self._collection_ids, name, flt, k)

    def hybrid_search(self, query: HybridQuery, flt: SearchFilter) -> HybridRanking:
        with self._conn() as conn:
            return hybrid.hybrid_search(
                conn, self._collection_ids, query, flt, ef_search=self.ef_search
            )


def _configure(conn: Conn) -> None:
    register_vector(conn)
    configure_search(conn)
