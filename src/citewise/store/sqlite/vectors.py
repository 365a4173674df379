"""The SQLite store's vector writes, as functions over a connection: which chunks still lack
a vector, and storing them inside the caller's transaction (the first embedder is recorded;
another is refused)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np

from citewise.errors import StoreError
from citewise.types.vectors import Vectors


def chunks_missing_vectors(
    conn: sqlite3.Connection, limit: int, after_id: int = 0, *, doc_id: int | None = None
) -> list[tuple[int, str]]:
    one_doc = "" if doc_id is None else " AND doc_id = ?"
    rows = conn.execute(
        f"SELECT id, embed_text FROM chunks WHERE has_vector = 0 AND id > ?{one_doc}"
        " ORDER BY id LIMIT ?",
        (after_id, *(() if doc_id is None else (doc_id,)), limit),
    ).fetchall()
    return [(int(r[0]), str(r[1])) for r in rows]


def count_missing_vectors(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT count(*) FROM chunks WHERE has_vector = 0").fetchone()
    return int(row[0])


def put_vectors(
    conn: sqlite3.Connection,
    chunk_ids: Sequence[int],
    vectors: Vectors,
    embedder: str,
    *,
    texts: Sequence[str] | None = None,
) -> None:
    _check_embedder(conn, embedder, record=True)
    for i, (chunk_id, vec) in enumerate(zip(chunk_ids, vectors, strict=True)):
        row = conn.execute(
            "SELECT collection_id, embed_text FROM chunks WHERE id = ?", (chunk_id,)
        ).fetchone()
        if row is None:  # deleted meanwhile (a concurrent rm or replace)
            continue
        if texts is not None and row[1] != texts[i]:  # its id went to a new chunk
            continue
        conn.execute(
            "INSERT OR REPLACE INTO vectors(chunk_id, collection_id, vec) VALUES (?,?,?)",
            (chunk_id, row[0], np.ascontiguousarray(vec, dtype=np.float32).tobytes()),
        )
        conn.execute("UPDATE chunks SET has_vector = 1 WHERE id = ?", (chunk_id,))


def _check_embedder(conn: sqlite3.Connection, embedder: str, *, record: bool) -> None:
    row = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
    if row is None:
        if record:
            conn.execute("INSERT INTO meta(key, value) VALUES ('embedder', ?)", (embedder,))
        return
    if row[0] != embedder:
        raise StoreError(
            f"this store's vectors were made with embedder '{row[0]}', not '{embedder}'."
            " Use the same embedder, or a new --data-dir to re-index with another."
        )
