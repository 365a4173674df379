"""The SQLite store's writes, as functions over a connection inside the caller's write
transaction: collections, document rows, chunks with their keyword rows, vectors a
replacement reuses, deletion and promotion to ready (`finalize`). Every change a search
must see bumps the store's generation (the vector cache's key)."""

from __future__ import annotations

import json
import sqlite3
import time

from citewise.types import ChunkedDocument, NewDocument
from citewise.types.positions import encode_boxes


def bump_generation(conn: sqlite3.Connection) -> None:
    conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")


def generation(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return int(row[0])


def collection_id(conn: sqlite3.Connection, name: str, *, create: bool = False) -> int | None:
    row = conn.execute("SELECT id FROM collections WHERE name = ?", (name,)).fetchone()
    if row:
        return int(row[0])
    if not create:
        return None
    cur = conn.execute(
        "INSERT INTO collections(name, created_at) VALUES (?, ?)", (name, time.time())
    )
    return int(cur.lastrowid or 0)


def settle(
    conn: sqlite3.Connection, cid: int, new: NewDocument, replaces: int | None
) -> tuple[int | None, int]:
    """What another process did to this source since the caller looked decides: the same
    version stored already (its id, nothing to add), or the live version to replace.
    Older staged versions give way. Returns (replaces, existing id or 0)."""
    rows = conn.execute(
        "SELECT id, content_hash, pipeline, status, loading FROM documents"
        " WHERE collection_id = ? AND source = ? ORDER BY id",
        (cid, new.source),
    ).fetchall()
    for doc_id, digest, pipeline, _, loading in rows:
        if digest == new.content_hash and pipeline == new.pipeline and not loading:
            return replaces, int(doc_id)
    live = [int(r[0]) for r in rows if r[3] != "staged"]
    for doc_id, *_rest, status, _ in rows:
        if status == "staged":
            delete(conn, int(doc_id))
    return (live[0] if live else None), 0


def add_document(conn: sqlite3.Connection, new: NewDocument, *, replaces: int | None = None) -> int:
    cid = collection_id(conn, new.collection, create=True)
    assert cid is not None
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
    conn: sqlite3.Connection,
    cid: int,
    new: NewDocument,
    status: str,
    replaces: int | None,
    chunk_count: int,
    *,
    loading: bool = False,
) -> int:
    """The document row of `new` (inside the caller's transaction); returns its id."""
    cur = conn.execute(
        "INSERT INTO documents(collection_id, source, title, format, category, tags,"
        " content_hash, mtime, size, status, replaces, page_count, chunk_count,"
        " ingested_at, pipeline, loading, fields) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            cid, new.source, new.title, new.format, new.category, json.dumps(new.tags),
            new.content_hash, new.mtime, new.size, status, replaces, new.page_count,
            chunk_count, time.time(), new.pipeline, int(loading), new.fields.to_json(),
        ),
    )  # fmt: skip
    return int(cur.lastrowid or 0)


def insert_chunks(
    conn: sqlite3.Connection, doc_id: int, cid: int, title: str, chunks: ChunkedDocument
) -> int:
    """Inserts parents, chunks and keyword rows; returns the first chunk's id (0: none).
    A child's parent is among `chunks.parents` (matched by ordinal)."""
    conn = conn
    parent_ids: dict[int, int] = {}
    for p in chunks.parents:
        pc = conn.execute(
            "INSERT INTO parents(doc_id, ordinal, text, section, page_start, page_end)"
            " VALUES (?,?,?,?,?,?)",
            (doc_id, p.ordinal, p.text, p.section, p.page_start, p.page_end),
        )
        parent_ids[p.ordinal] = int(pc.lastrowid or 0)
    first = 0
    for ch in chunks.children:
        cc = conn.execute(
            "INSERT INTO chunks(doc_id, parent_id, collection_id, ordinal, text,"
            " embed_text, section, page_start, page_end, content_hash, boxes)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                doc_id, parent_ids[ch.parent_ordinal], cid, ch.ordinal, ch.text,
                ch.embed_text, ch.section, ch.page_start, ch.page_end, ch.content_hash,
                encode_boxes(ch.boxes) if ch.boxes else None,
            ),
        )  # fmt: skip
        first = first or int(cc.lastrowid or 0)
        conn.execute(
            "INSERT INTO chunks_fts(rowid, title, section, text) VALUES (?,?,?,?)",
            (cc.lastrowid, title, ch.section, ch.text),
        )
    return first


def reuse_vectors(
    conn: sqlite3.Connection, doc_id: int, old_doc_id: int, first_chunk: int = 0
) -> None:
    """A new version's chunks (those from id `first_chunk` on) whose embedded text the
    old version has take its vectors: an edit, or a re-parse after an upgrade, re-embeds
    only what changed. Equal texts are looked up by hash (an index), not compared all
    against all."""
    conn.execute(
        "INSERT INTO vectors(chunk_id, collection_id, vec)"
        " SELECT n.id, n.collection_id, v.vec FROM chunks n"
        " JOIN chunks o ON o.doc_id = ? AND o.content_hash = n.content_hash"
        " AND o.embed_text = n.embed_text"
        " JOIN vectors v ON v.chunk_id = o.id"
        " WHERE n.doc_id = ? AND n.id >= ? AND n.has_vector = 0 GROUP BY n.id",
        (old_doc_id, doc_id, first_chunk),
    )
    conn.execute(
        "UPDATE chunks SET has_vector = 1 WHERE doc_id = ? AND id >= ? AND has_vector = 0"
        " AND EXISTS (SELECT 1 FROM vectors WHERE vectors.chunk_id = chunks.id)",
        (doc_id, first_chunk),
    )


def delete(conn: sqlite3.Connection, doc_id: int) -> None:
    conn.execute(
        "DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ?)",
        (doc_id,),
    )
    conn.execute(
        "DELETE FROM vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE doc_id = ?)",
        (doc_id,),
    )
    conn.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
    conn.execute("DELETE FROM parents WHERE doc_id = ?", (doc_id,))
    conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))


def delete_document(conn: sqlite3.Connection, doc_id: int) -> None:
    delete(conn, doc_id)
    bump_generation(conn)


def finalize(conn: sqlite3.Connection) -> list[int]:
    done = conn.execute(
        "SELECT id, replaces FROM documents WHERE status != 'ready' AND loading = 0"
        " AND NOT EXISTS"
        " (SELECT 1 FROM chunks WHERE chunks.doc_id = documents.id AND has_vector = 0)"
    ).fetchall()
    for doc_id, replaces in done:
        if replaces is not None:
            delete(conn, int(replaces))
        conn.execute(
            "UPDATE documents SET status = 'ready', replaces = NULL WHERE id = ?",
            (doc_id,),
        )
    if done:
        bump_generation(conn)
    return [int(d[0]) for d in done]
