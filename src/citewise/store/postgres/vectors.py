"""The PostgreSQL store's vector writes, as a function over a connection: storing vectors
inside the caller's transaction. The first embedder fixes the vectors' dimension and builds
the HNSW index; another embedder is refused."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg

from citewise.errors import StoreError
from citewise.types.vectors import Vectors

Conn = psycopg.Connection[tuple[Any, ...]]
# serializes the first embedder's dimension and HNSW index (`put_vectors`)
_EMBEDDER_LOCK = 0x63697465776974


def put_vectors(
    conn: Conn,
    chunk_ids: Sequence[int],
    vectors: Vectors,
    embedder: str,
    *,
    texts: Sequence[str] | None = None,
) -> None:
    """With `texts` (the embedded texts), a vector is kept only where the chunk still
    holds that text."""
    _check_embedder(conn, embedder, int(vectors.shape[1]))
    ids = [int(c) for c in chunk_ids]
    # the chunks are locked first: one deleted meanwhile, even by a transaction still
    # open, is waited for and dropped instead of failing the vectors' foreign key
    conn.execute(
        "WITH kept AS (SELECT ch.id, ch.collection_id, v.embedding"
        " FROM unnest(%s::bigint[], %s::vector[], %s::text[]) AS v(chunk_id, embedding,"
        " embedded) JOIN chunks ch ON ch.id = v.chunk_id"
        " AND (v.embedded IS NULL OR v.embedded = ch.embed_text) FOR KEY SHARE OF ch)"
        " INSERT INTO vectors(chunk_id, collection_id, embedding)"
        " SELECT id, collection_id, embedding FROM kept"
        " ON CONFLICT (collection_id, chunk_id)"
        " DO UPDATE SET embedding = excluded.embedding",
        (
            ids,
            [np.ascontiguousarray(v, dtype=np.float32) for v in vectors],
            list(texts) if texts is not None else [None] * len(ids),
        ),
    )
    conn.execute(
        "UPDATE chunks SET has_vector = true WHERE id = ANY(%s) AND EXISTS"
        " (SELECT 1 FROM vectors v WHERE v.chunk_id = chunks.id)",
        (ids,),
    )


def _check_embedder(conn: Conn, embedder: str, dim: int) -> None:
    """The first embedder fixes the vectors' dimension and builds the HNSW index; any
    other embedder is refused."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
    if row is None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_EMBEDDER_LOCK,))
        row = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
    if row is None:
        conn.execute("INSERT INTO meta(key, value) VALUES ('embedder', %s)", (embedder,))
        conn.execute("INSERT INTO meta(key, value) VALUES ('dimension', %s)", (str(dim),))
        conn.execute(f"ALTER TABLE vectors ALTER COLUMN embedding TYPE vector({dim})")
        conn.execute(
            "CREATE INDEX IF NOT EXISTS vectors_hnsw ON vectors"
            " USING hnsw (embedding vector_ip_ops)"
        )
        return
    if row[0] != embedder:
        raise StoreError(
            f"this store's vectors were made with embedder '{row[0]}', not '{embedder}'."
            " Use the same embedder, or `citewise reindex --new-embedder` to embed again."
        )
