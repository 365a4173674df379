"""The PostgreSQL store's streamed writes: a document too large to hold in memory is
inserted as a staged, loading version, its chunks appended batch by batch (each batch one
transaction), and only then made visible. Until then no search sees it; a run killed
meanwhile leaves a loading version the next ingest of its source removes. Each function
runs inside the caller's transaction."""

from __future__ import annotations

from typing import Any

import psycopg

from citewise.store.postgres.writes import (
    collection_id,
    insert_chunks,
    insert_document,
    reuse_vectors,
    settle,
)
from citewise.types import ChunkedDocument, NewDocument

Conn = psycopg.Connection[tuple[Any, ...]]


def begin_document(conn: Conn, new: NewDocument, *, replaces: int | None = None) -> int | None:
    """Inserts `new` (its chunks are ignored) as a loading version, invisible to every
    search; None when the same version is stored already."""
    cid = collection_id(conn, new.collection, create=True)
    assert cid is not None
    replaces, existing = settle(conn, cid, new, replaces)
    if existing:
        return None
    return insert_document(conn, cid, new, "staged", replaces, 0, loading=True)


def append_chunks(conn: Conn, doc_id: int, chunks: ChunkedDocument) -> bool:
    """Appends whole parents with their children to a loading version (one
    transaction); False when that version is gone (another ingest of the source)."""
    row = conn.execute(
        "SELECT collection_id, title, replaces FROM documents WHERE id = %s AND loading FOR UPDATE",
        (doc_id,),
    ).fetchone()
    if row is None:
        return False
    cid, title, replaces = int(row[0]), str(row[1]), row[2]
    first = insert_chunks(conn, doc_id, cid, title, chunks)
    conn.execute(
        "UPDATE documents SET chunk_count = chunk_count + %s WHERE id = %s",
        (len(chunks.children), doc_id),
    )
    if replaces is not None and first:
        reuse_vectors(conn, doc_id, int(replaces), first)
    return True


def complete_document(conn: Conn, doc_id: int, *, page_count: int | None = None) -> bool:
    """Ends the loading: visible to keyword search at once, or, when a live version of
    its source exists, staged until `finalize()` swaps it in. False when it is gone."""
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
