"""What the PostgreSQL store reads its own way (`PostgresReads`, the `store.sql.ReadConn`
the shared reads run on): id lists as one array, tags as an array, titles by ILIKE, no line
boxes (they are not stored here); and the stored vectors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg

from citewise.db.postgres import QmarkConnection
from citewise.types.vectors import Vectors

Conn = psycopg.Connection[tuple[Any, ...]]


class PostgresReads(QmarkConnection):
    """One psycopg connection, as the shared SQL wants it."""

    title_like = "ILIKE ?"
    boxes_column = "NULL"

    def any_of(self, column: str, ids: Sequence[int]) -> tuple[str, tuple[object, ...]]:
        return f"{column} = ANY(?)", ([int(i) for i in ids],)

    def tags_of(self, value: Any) -> tuple[str, ...]:
        return tuple(value)


def get_vectors(conn: Conn, chunk_ids: Sequence[int]) -> dict[int, Vectors]:
    if not chunk_ids:
        return {}
    # never prepared: the first embedder's ALTER to vector(dim), from any process,
    # changes this result's type, which a prepared plan refuses
    rows = conn.execute(
        "SELECT chunk_id, embedding FROM vectors WHERE chunk_id = ANY(%s)",
        ([int(i) for i in chunk_ids],),
        prepare=False,
    ).fetchall()
    return {int(r[0]): _array(r[1]) for r in rows}


def _array(value: Any) -> Vectors:
    """pgvector's loader gives a `Vector` (or, in older versions, a numpy array)."""
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, np.float32)
