"""The SQLite store's vector writes, as a function over a connection: storing vectors inside
the caller's transaction (the first embedder is recorded; another is refused)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np

from citewise.errors import StoreError
from citewise.types.vectors import Vectors


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
            " Use the same embedder, or `citewise reindex --new-embedder` to embed again."
        )
