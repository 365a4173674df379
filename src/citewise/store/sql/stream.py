"""The store's streamed writes, written once for both databases: a document too large to
hold in memory is inserted as a staged, loading version, its chunks appended batch by
batch (each batch one transaction), and only then made visible. Until then no search sees
it; a run killed meanwhile leaves a loading version the next ingest of its source removes.
Each function runs inside the caller's write transaction."""

from __future__ import annotations

from citewise.store.sql.connection import WriteConn
from citewise.store.sql.writes import (
    ensure_collection,
    insert_chunks,
    insert_document,
    reuse_vectors,
    settle,
)
from citewise.types import ChunkedDocument, NewDocument


def begin_document(conn: WriteConn, new: NewDocument, *, replaces: int | None = None) -> int | None:
    """Inserts `new` (its chunks are ignored) as a loading version, invisible to every
    search; None when the same version is stored already."""
    cid = ensure_collection(conn, new.collection)
    replaces, existing = settle(conn, cid, new, replaces)
    if existing:
        return None
    return insert_document(conn, cid, new, "staged", replaces, 0, loading=True)


def append_chunks(conn: WriteConn, doc_id: int, chunks: ChunkedDocument) -> bool:
    """Appends whole parents with their children to a loading version (one
    transaction); False when that version is gone (another ingest of the source)."""
    row = conn.execute(
        conn.locked(
            "SELECT collection_id, title, replaces FROM documents WHERE id = ? AND loading = TRUE"
        ),
        (doc_id,),
    ).fetchone()
    if row is None:
        return False
    cid, title, replaces = int(row[0]), str(row[1]), row[2]
    first = insert_chunks(conn, doc_id, cid, title, chunks)
    conn.execute(
        "UPDATE documents SET chunk_count = chunk_count + ? WHERE id = ?",
        (len(chunks.children), doc_id),
    )
    if replaces is not None and first:
        reuse_vectors(conn, doc_id, int(replaces), first)
    return True


def complete_document(conn: WriteConn, doc_id: int, *, page_count: int | None = None) -> bool:
    """Ends the loading: the version becomes visible to keyword search at once, or,
    when a live version of its source exists, stays staged until `finalize()` swaps it
    in. False when the loading version is gone."""
    row = conn.execute(
        "SELECT collection_id, source FROM documents WHERE id = ?", (doc_id,)
    ).fetchone()
    if row is None:
        return False
    # the source's lock first, as `settle` takes it: no deadlock with its delete
    conn.lock_source(int(row[0]), str(row[1]))
    loading = conn.execute(
        conn.locked("SELECT 1 FROM documents WHERE id = ? AND loading = TRUE"), (doc_id,)
    ).fetchone()
    if loading is None:
        return False
    live = conn.execute(
        "SELECT max(id) FROM documents WHERE collection_id = ? AND source = ?"
        " AND status <> 'staged'",
        (row[0], row[1]),
    ).fetchone()[0]
    conn.execute(
        "UPDATE documents SET loading = FALSE, status = ?, replaces = ?, page_count = ?"
        " WHERE id = ?",
        ("indexing" if live is None else "staged", live, page_count, doc_id),
    )
    return True
