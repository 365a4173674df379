"""The embedded default store: one SQLite file in WAL mode holding every index.

`SQLiteStore` owns the connections (one per thread), the write transaction (one writer per
file), the snapshot and the vector cache; the searches and vectors are functions over a
connection in `search` and `vectors`, the documents and chunks those of `store.sql`
(`SqlStore`) over `reads.SQLiteReads` and `writes.SQLiteWrites`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from citewise.db.migrations import schema_version
from citewise.db.sqlite import ThreadConnections, connect
from citewise.errors import StoreError
from citewise.graph.sqlite import SQLiteGraphStore
from citewise.graph.store import GraphStore
from citewise.store.base import check_batch, warn_if_reindex_needed
from citewise.store.sql.connection import ReadConn, WriteConn
from citewise.store.sql.store import SqlStore
from citewise.store.sqlite import search
from citewise.store.sqlite import vectors as vector_writes
from citewise.store.sqlite.reads import SQLiteReads, one_state
from citewise.store.sqlite.schema import SCHEMA_VERSION, apply_schema
from citewise.store.sqlite.shared import shared_state
from citewise.store.sqlite.writes import SQLiteWrites
from citewise.types import Candidate, SearchFilter
from citewise.types.vectors import Vectors


class SQLiteStore(SqlStore):
    """Thread-safe: each thread reads through its own connection, writes are serialized by
    one lock per database file, and the vector cache is shared by every thread."""

    def __init__(self, path: Path) -> None:
        super().__init__(self._reads, self._writes)
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._connections = ThreadConnections(self._connect)
        try:
            apply_schema(self._conn)
        except sqlite3.DatabaseError as exc:
            self._connections.close_all()
            raise StoreError(f"cannot open the store at {path}: {exc}") from exc
        except StoreError:
            self._connections.close_all()
            raise
        warn_if_reindex_needed(self, str(path))
        shared = shared_state(path)
        self._vectors = search.PartitionCache(shared.partitions, shared.cache_lock, shared.ann)
        self._write_lock = shared.write_lock

    def _connect(self) -> sqlite3.Connection:
        try:
            return connect(self.path, synchronous="NORMAL")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the store at {self.path}: {exc}") from exc

    @property
    def _conn(self) -> sqlite3.Connection:
        return self._connections.get()

    def close(self) -> None:
        self._connections.close_all()

    def schema_version(self) -> tuple[int, int]:
        return schema_version(self._conn), SCHEMA_VERSION

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        with self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            else:
                conn.execute("COMMIT")

    @contextmanager
    def _reads(self) -> Iterator[ReadConn]:
        yield SQLiteReads(self._conn)

    @contextmanager
    def _writes(self) -> Iterator[WriteConn]:
        with self._tx() as conn:
            yield SQLiteWrites(conn)

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one state of the store (a WAL read transaction), so a replace
        committed meanwhile cannot remove chunks a ranking already named."""
        with one_state(self._conn):
            yield

    # -- the knowledge graph (`GraphHolder`) --------------------------------------------

    def graph_store(self) -> GraphStore:
        # reads through the calling thread's connection (inside `snapshot()` too)
        return SQLiteGraphStore.per_thread(self._connections.get)

    # -- vectors ---------------------------------------------------------------------

    def put_vectors(
        self,
        chunk_ids: Sequence[int],
        vectors: Vectors,
        embedder: str,
        *,
        texts: Sequence[str] | None = None,
    ) -> None:
        check_batch(chunk_ids, vectors, texts)  # before the write lock is taken
        with self._tx() as conn:
            vector_writes.put_vectors(conn, chunk_ids, vectors, embedder, texts=texts)

    def get_vectors(self, chunk_ids: Sequence[int]) -> dict[int, Vectors]:
        return search.get_vectors(self._conn, chunk_ids)

    # -- searches --------------------------------------------------------------------

    def keyword_search(self, terms: Sequence[str], flt: SearchFilter, k: int) -> list[Candidate]:
        return search.keyword_search(self._conn, terms, flt, k)

    def heading_search(self, name: str, flt: SearchFilter, k: int) -> list[Candidate]:
        return search.heading_search(self._conn, name, flt, k)

    def vector_search(self, query: Vectors, flt: SearchFilter, k: int) -> list[Candidate]:
        return search.vector_search(self._conn, self._vectors, query, flt, k)
