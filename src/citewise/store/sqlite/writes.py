"""What the SQLite store writes its own way (`SQLiteWrites`, the `store.sql.WriteConn` the
shared writes run on): ids from `lastrowid`, tags as JSON, the FTS5 keyword rows beside the
chunks, line boxes in a chunk column, explicit deletes (FTS5 rows have no foreign key), and
the generation every change a search must see bumps (the vector cache's key)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from citewise.graph.sqlite import SQLiteGraphStore
from citewise.store.sqlite.reads import SQLiteReads
from citewise.types import Child
from citewise.types.positions import encode_boxes


def bump_generation(conn: sqlite3.Connection) -> None:
    conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")


def generation(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return int(row[0])


class SQLiteWrites(SQLiteReads):
    """One connection inside the store's write transaction (which already excludes every
    other writer of the file: rows need no locks)."""

    chunk_columns = ", boxes"
    chunk_marks = ",?"

    def insert_ids(self, sql: str, rows: Sequence[Sequence[object]]) -> list[int]:
        return [int(self._conn.execute(sql, row).lastrowid or 0) for row in rows]

    def locked(self, sql: str, *, skip_locked: bool = False) -> str:
        return sql  # the write transaction holds the whole file

    def lock_source(self, collection_id: int, source: str) -> None:
        return None  # the write transaction holds the whole file

    def add_collection(self, name: str, created_at: float) -> None:
        self._conn.execute(
            "INSERT INTO collections(name, created_at) VALUES (?, ?)", (name, created_at)
        )

    def tags(self, tags: Sequence[str]) -> object:
        return json.dumps(tags)

    def chunk_values(self, title: str, chunk: Child) -> tuple[object, ...]:
        return (encode_boxes(chunk.boxes) if chunk.boxes else None,)

    def index_chunks(self, chunk_ids: Sequence[int], title: str, chunks: Sequence[Child]) -> None:
        self._conn.executemany(
            "INSERT INTO chunks_fts(rowid, title, section, text) VALUES (?,?,?,?)",
            [(i, title, ch.section, ch.text) for i, ch in zip(chunk_ids, chunks, strict=True)],
        )

    def copy_vectors(self, doc_id: int, old_doc_id: int, first_chunk: int) -> None:
        self._conn.execute(
            "INSERT INTO vectors(chunk_id, collection_id, vec)"
            " SELECT n.id, n.collection_id, v.vec FROM chunks n"
            " JOIN chunks o ON o.doc_id = ? AND o.content_hash = n.content_hash"
            " AND o.embed_text = n.embed_text"
            " JOIN vectors v ON v.chunk_id = o.id"
            " WHERE n.doc_id = ? AND n.id >= ? AND n.has_vector = 0 GROUP BY n.id",
            (old_doc_id, doc_id, first_chunk),
        )

    def copy_shared_vectors(self, chunk_ids: Sequence[int]) -> None:
        marks = ",".join("?" * len(chunk_ids))
        self._conn.execute(
            "INSERT INTO vectors(chunk_id, collection_id, vec)"
            " SELECT n.id, n.collection_id, (SELECT v.vec FROM chunks o"
            " JOIN vectors v ON v.chunk_id = o.id WHERE o.embed_hash = n.embed_hash LIMIT 1)"
            f" FROM chunks n WHERE n.id IN ({marks}) AND n.has_vector = 0"
            " AND n.embed_hash IS NOT NULL AND EXISTS (SELECT 1 FROM chunks o"
            " JOIN vectors v ON v.chunk_id = o.id WHERE o.embed_hash = n.embed_hash)",
            tuple(chunk_ids),
        )

    def delete_version(self, doc_id: int) -> None:
        for sql in (
            "DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ?)",
            "DELETE FROM vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE doc_id = ?)",
            "DELETE FROM chunks WHERE doc_id = ?",
            "DELETE FROM parents WHERE doc_id = ?",
            "DELETE FROM documents WHERE id = ?",
        ):
            self._conn.execute(sql, (doc_id,))

    def graph(self) -> SQLiteGraphStore:
        return SQLiteGraphStore.over(self._conn)

    def forget_vectors(self) -> None:
        self._conn.execute("DELETE FROM vectors")
        self._conn.execute("DELETE FROM meta WHERE key = 'embedder'")

    def changed(self) -> None:
        bump_generation(self._conn)
