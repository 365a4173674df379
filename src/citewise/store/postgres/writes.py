"""The PostgreSQL store's writes, as functions over a connection inside the caller's
transaction: collections (each with its vector partition), document rows, chunks with
their keyword vectors, vectors a replacement reuses, deletion and promotion to ready."""

from __future__ import annotations

import time
from typing import Any

import psycopg

from citewise.store.postgres.schema import partition_sql
from citewise.store.postgres.tsvector import tsvector_literal
from citewise.types import ChunkedDocument, DocumentFields, NewDocument

Conn = psycopg.Connection[tuple[Any, ...]]


def collection_id(conn: Conn, name: str, *, create: bool = False) -> int | None:
    row = conn.execute("SELECT id FROM collections WHERE name = %s", (name,)).fetchone()
    if row is not None or not create:
        return None if row is None else int(row[0])
    created = conn.execute(
        "INSERT INTO collections(name, created_at) VALUES (%s, %s)"
        " ON CONFLICT (name) DO NOTHING RETURNING id",
        (name, time.time()),
    ).fetchone()
    if created is not None:
        conn.execute(partition_sql(int(created[0])))
    return collection_id(conn, name)


def settle(conn: Conn, cid: int, new: NewDocument, replaces: int | None) -> tuple[int | None, int]:
    """What another process did to this source since the caller looked decides: the same
    version stored already (its id, nothing to add), or the live version to replace.
    Older staged versions give way. Returns (replaces, existing id or 0). Serialised
    per source by an advisory lock held to the end of the transaction."""
    conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (cid, new.source))
    rows = conn.execute(
        "SELECT id, content_hash, pipeline, status, loading FROM documents"
        " WHERE collection_id = %s AND source = %s ORDER BY id",
        (cid, new.source),
    ).fetchall()
    for doc_id, digest, pipeline, _, loading in rows:
        if digest == new.content_hash and pipeline == new.pipeline and not loading:
            return replaces, int(doc_id)
    for doc_id, *_rest, status, _ in rows:
        if status == "staged":
            conn.execute("DELETE FROM documents WHERE id = %s", (doc_id,))
    live = [int(r[0]) for r in rows if r[3] != "staged"]
    return (live[0] if live else None), 0


def add_document(conn: Conn, new: NewDocument, *, replaces: int | None = None) -> int:
    """Another process may have stored the source meanwhile: the same version is not
    added twice (its id is returned), and a different one becomes a staged replacement
    of the live version."""
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
    conn: Conn,
    cid: int,
    new: NewDocument,
    status: str,
    replaces: int | None,
    chunk_count: int,
    *,
    loading: bool = False,
) -> int:
    """The document row of `new` (inside the caller's transaction); returns its id."""
    row = conn.execute(
        "INSERT INTO documents(collection_id, source, title, format, category, tags,"
        " content_hash, mtime, size, status, replaces, page_count, chunk_count,"
        " ingested_at, pipeline, loading, fields) VALUES"
        " (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
        (
            cid, new.source, new.title, new.format, new.category, list(new.tags),
            new.content_hash, new.mtime, new.size, status, replaces, new.page_count,
            chunk_count, time.time(), new.pipeline, loading, new.fields.to_json(),
        ),
    ).fetchone()  # fmt: skip
    assert row is not None
    return int(row[0])


def insert_chunks(conn: Conn, doc_id: int, cid: int, title: str, chunks: ChunkedDocument) -> int:
    """Inserts parents and chunks (with their keyword vectors); returns the smallest new
    chunk id (0: none). A child's parent is among `chunks.parents` (by ordinal)."""
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO parents(doc_id, ordinal, text, section, page_start, page_end)"
            " VALUES (%s,%s,%s,%s,%s,%s) RETURNING id",
            [
                (doc_id, p.ordinal, p.text, p.section, p.page_start, p.page_end)
                for p in chunks.parents
            ],
            returning=True,
        )
        parent_ids: dict[int, int] = {}
        ordinals = iter(p.ordinal for p in chunks.parents)
        while True:
            got = cur.fetchone()
            if got is not None:
                parent_ids[next(ordinals)] = int(got[0])
            if not cur.nextset():
                break
        cur.executemany(
            "INSERT INTO chunks(doc_id, parent_id, collection_id, ordinal, text,"
            " embed_text, section, page_start, page_end, content_hash, tsv, n_tokens)"
            " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s::tsvector,%s) RETURNING id",
            [
                (
                    doc_id, parent_ids[ch.parent_ordinal], cid, ch.ordinal, ch.text,
                    ch.embed_text, ch.section, ch.page_start, ch.page_end,
                    ch.content_hash, *tsvector_literal(title, ch.section, ch.text),
                )
                for ch in chunks.children
            ],
            returning=True,
        )  # fmt: skip
        first = 0
        while True:
            got = cur.fetchone()
            if got is not None:
                first = min(first or int(got[0]), int(got[0]))
            if not cur.nextset():
                break
    return first


def reuse_vectors(conn: Conn, doc_id: int, old_doc_id: int, first_chunk: int = 0) -> None:
    """A new version's chunks (from id `first_chunk` on) whose embedded text the old
    version has take its vectors; equal texts are looked up by hash."""
    conn.execute(
        "INSERT INTO vectors(chunk_id, collection_id, embedding)"
        " SELECT DISTINCT ON (n.id) n.id, n.collection_id, v.embedding FROM chunks n"
        " JOIN chunks o ON o.doc_id = %s AND o.content_hash = n.content_hash"
        " AND o.embed_text = n.embed_text"
        " JOIN vectors v ON v.chunk_id = o.id"
        " WHERE n.doc_id = %s AND n.id >= %s AND NOT n.has_vector ORDER BY n.id",
        (old_doc_id, doc_id, first_chunk),
    )
    conn.execute(
        "UPDATE chunks SET has_vector = true WHERE doc_id = %s AND id >= %s"
        " AND NOT has_vector"
        " AND EXISTS (SELECT 1 FROM vectors WHERE vectors.chunk_id = chunks.id)",
        (doc_id, first_chunk),
    )


def delete_document(conn: Conn, doc_id: int) -> None:
    conn.execute("DELETE FROM documents WHERE id = %s", (doc_id,))


def finalize(conn: Conn) -> list[int]:
    # a document another process is finalizing is left to it
    done = conn.execute(
        "SELECT id, replaces FROM documents d WHERE status <> 'ready' AND NOT loading"
        " AND NOT EXISTS"
        " (SELECT 1 FROM chunks c WHERE c.doc_id = d.id AND NOT c.has_vector)"
        " ORDER BY id FOR UPDATE SKIP LOCKED"
    ).fetchall()
    for doc_id, replaces in done:
        if replaces is not None:
            conn.execute("DELETE FROM documents WHERE id = %s", (replaces,))
        conn.execute(
            "UPDATE documents SET status = 'ready', replaces = NULL WHERE id = %s",
            (doc_id,),
        )
    return [int(d[0]) for d in done]


def describe_document(conn: Conn, doc_id: int, fields: DocumentFields) -> None:
    conn.execute("UPDATE documents SET fields = %s WHERE id = %s", (fields.to_json(), doc_id))
