"""The store's writes, written once for both databases as functions over a `WriteConn`
inside the caller's write transaction: collections, document rows, chunks with their
keyword index, vectors a replacement reuses, deletion and promotion to ready (`finalize`),
a document's knowledge graph."""

from __future__ import annotations

import time
from collections.abc import Sequence

from citewise.db.sql import SqlConn
from citewise.graph.model import DocumentGraph, DocumentLink
from citewise.store.sql.connection import WriteConn
from citewise.text.embed_key import embed_key
from citewise.types import ChunkedDocument, DocumentFields, NewDocument

_CHUNK_COLUMNS = (
    "doc_id, parent_id, collection_id, ordinal, text, embed_text, section, page_start,"
    " page_end, content_hash, embed_hash, label, has_vector"
)


def collection_id(conn: SqlConn, name: str) -> int | None:
    row = conn.execute("SELECT id FROM collections WHERE name = ?", (name,)).fetchone()
    return None if row is None else int(row[0])


def ensure_collection(conn: WriteConn, name: str) -> int:
    """The id of the collection `name`, added if it is new."""
    found = collection_id(conn, name)
    if found is None:
        conn.add_collection(name, time.time())
        found = collection_id(conn, name)
    assert found is not None
    return found


def record_root(conn: WriteConn, collection: str, root: str) -> str:
    """Records `root` as the folder the collection's sources are relative to, unless one is
    recorded already; returns the recorded one (the first ingest's folder stays)."""
    cid = ensure_collection(conn, collection)
    conn.execute("UPDATE collections SET root = ? WHERE id = ? AND root IS NULL", (root, cid))
    row = conn.execute("SELECT root FROM collections WHERE id = ?", (cid,)).fetchone()
    return str(row[0])


def settle(
    conn: WriteConn, cid: int, new: NewDocument, replaces: int | None
) -> tuple[int | None, int]:
    """What another process did to this source since the caller looked decides: the same
    version stored already (its id, nothing to add), or the live version to replace.
    Older staged versions give way. Returns (replaces, existing id or 0)."""
    conn.lock_source(cid, new.source)
    rows = conn.execute(
        "SELECT id, content_hash, pipeline, status, loading FROM documents"
        " WHERE collection_id = ? AND source = ? ORDER BY id",
        (cid, new.source),
    ).fetchall()
    for doc_id, digest, pipeline, _, loading in rows:
        if digest == new.content_hash and pipeline == new.pipeline and not loading:
            return replaces, int(doc_id)
    for doc_id, *_rest, status, _ in rows:
        if status == "staged":
            conn.delete_version(int(doc_id))
    live = [int(r[0]) for r in rows if r[3] != "staged"]
    return (live[0] if live else None), 0


def add_document(conn: WriteConn, new: NewDocument, *, replaces: int | None = None) -> int:
    """Another process may have stored the source meanwhile: the same version is not
    added twice (its id is returned), and a different one becomes a staged replacement
    of the live version."""
    cid = ensure_collection(conn, new.collection)
    replaces, existing = settle(conn, cid, new, replaces)
    if existing:
        return existing
    status = "staged" if replaces is not None else "indexing"
    doc_id = insert_document(conn, cid, new, status, replaces, len(new.chunks.children))
    insert_chunks(conn, doc_id, cid, new.title, new.chunks)
    if replaces is not None:
        reuse_vectors(conn, doc_id, replaces)
    return doc_id


def insert_document(
    conn: WriteConn,
    cid: int,
    new: NewDocument,
    status: str,
    replaces: int | None,
    chunk_count: int,
    *,
    loading: bool = False,
) -> int:
    """The document row of `new` (inside the caller's transaction); returns its id."""
    [doc_id] = conn.insert_ids(
        "INSERT INTO documents(collection_id, source, title, format, category, tags,"
        " content_hash, mtime, size, status, replaces, page_count, chunk_count,"
        " ingested_at, pipeline, loading, fields) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [(
            cid, new.source, new.title, new.format, new.category, conn.tags(new.tags),
            new.content_hash, new.mtime, new.size, status, replaces, new.page_count,
            chunk_count, time.time(), new.pipeline, loading, new.fields.to_json(),
        )],
    )  # fmt: skip
    return doc_id


def insert_chunks(
    conn: WriteConn, doc_id: int, cid: int, title: str, chunks: ChunkedDocument
) -> int:
    """Inserts parents and chunks with their keyword index; returns the smallest new chunk
    id (0: none). A child's parent is among `chunks.parents` (matched by ordinal)."""
    parent_ids = conn.insert_ids(
        "INSERT INTO parents(doc_id, ordinal, text, section, page_start, page_end)"
        " VALUES (?,?,?,?,?,?)",
        [(doc_id, p.ordinal, p.text, p.section, p.page_start, p.page_end) for p in chunks.parents],
    )
    by_ordinal = dict(zip((p.ordinal for p in chunks.parents), parent_ids, strict=True))
    chunk_ids = conn.insert_ids(
        f"INSERT INTO chunks({_CHUNK_COLUMNS}{conn.chunk_columns})"
        f" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?{conn.chunk_marks})",
        [
            (
                doc_id, by_ordinal[ch.parent_ordinal], cid, ch.ordinal, ch.text,
                ch.embed_text, ch.section, ch.page_start, ch.page_end, ch.content_hash,
                # a chunk not embedded is done with (has_vector) without a vector
                embed_key(ch.embed_text), ch.label, not ch.embed, *conn.chunk_values(title, ch),
            )
            for ch in chunks.children
        ],
    )  # fmt: skip
    conn.index_chunks(chunk_ids, title, chunks.children)
    return min(chunk_ids, default=0)


def reuse_vectors(conn: WriteConn, doc_id: int, old_doc_id: int, first_chunk: int = 0) -> None:
    """A new version's chunks (those from id `first_chunk` on) whose embedded text the
    old version has take its vectors: an edit, or a re-parse after an upgrade, re-embeds
    only what changed. Equal texts are looked up by hash (an index), not compared all
    against all."""
    conn.copy_vectors(doc_id, old_doc_id, first_chunk)
    conn.execute(
        "UPDATE chunks SET has_vector = TRUE WHERE doc_id = ? AND id >= ?"
        " AND has_vector = FALSE"
        " AND EXISTS (SELECT 1 FROM vectors WHERE vectors.chunk_id = chunks.id)",
        (doc_id, first_chunk),
    )


def share_vectors(conn: WriteConn, chunk_ids: Sequence[int]) -> list[int]:
    """Those of `chunk_ids` lacking a vector take the vector of a chunk whose embedded text
    is the same after whitespace (`text.embed_key`); returns the ids that now have one."""
    if not chunk_ids:
        return []
    conn.copy_shared_vectors(chunk_ids)
    marks = ",".join("?" * len(chunk_ids))
    done = conn.execute(
        f"SELECT c.id FROM chunks c WHERE c.id IN ({marks}) AND NOT c.has_vector"
        " AND EXISTS (SELECT 1 FROM vectors WHERE vectors.chunk_id = c.id)",
        tuple(chunk_ids),
    ).fetchall()
    ids = [int(row[0]) for row in done]
    if ids:
        conn.execute(
            f"UPDATE chunks SET has_vector = TRUE WHERE id IN ({','.join('?' * len(ids))})",
            tuple(ids),
        )
        conn.changed()
    return ids


def delete_document(conn: WriteConn, doc_id: int) -> None:
    conn.delete_version(doc_id)
    conn.changed()


def describe_document(conn: SqlConn, doc_id: int, fields: DocumentFields) -> None:
    conn.execute("UPDATE documents SET fields = ? WHERE id = ?", (fields.to_json(), doc_id))


def forget_vectors(conn: WriteConn) -> None:
    """Every chunk loses its vector (its document is found by keyword until embedded again,
    then `finalize` makes it ready); the next embedder to store vectors is recorded. A chunk
    left without a vector at ingest (`Child.embed`) stays so."""
    conn.execute(
        "UPDATE chunks SET has_vector = FALSE"
        " WHERE EXISTS (SELECT 1 FROM vectors WHERE vectors.chunk_id = chunks.id)"
    )
    conn.forget_vectors()
    conn.execute("UPDATE documents SET status = 'indexing' WHERE status = 'ready'")
    conn.changed()


def finalize(conn: WriteConn) -> list[int]:
    # a document another process is finalizing is left to it
    done = conn.execute(
        conn.locked(
            "SELECT id, replaces FROM documents d WHERE status <> 'ready' AND loading = FALSE"
            " AND NOT EXISTS"
            " (SELECT 1 FROM chunks c WHERE c.doc_id = d.id AND c.has_vector = FALSE)"
            " ORDER BY id",
            skip_locked=True,
        )
    ).fetchall()
    for doc_id, replaces in done:
        if replaces is not None:
            conn.delete_version(int(replaces))
        conn.execute(
            "UPDATE documents SET status = 'ready', replaces = NULL WHERE id = ?", (doc_id,)
        )
    if done:
        conn.changed()
    return [int(d[0]) for d in done]


def replace_graph(conn: WriteConn, doc_id: int, graph: DocumentGraph) -> list[DocumentLink]:
    row = conn.execute(
        "SELECT c.name, d.title, d.source FROM documents d"
        " JOIN collections c ON c.id = d.collection_id WHERE d.id = ?",
        (doc_id,),
    ).fetchone()
    if row is None:  # deleted or replaced meanwhile: its graph went with it
        return []
    collection, title, source = row
    return conn.graph().replace_document(doc_id, collection, title, source, graph)
