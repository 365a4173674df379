"""The PostgreSQL store's reads, as functions over a connection: collections and documents,
chunks by id, a document's chunks in reading order, the chunk just before a chunk or a
parent, stored vectors, documents by title."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg

from citewise.store.genre import like_prefix_patterns
from citewise.text.headings import title_starts
from citewise.types import ChunkRecord, DocumentFields, DocumentInfo
from citewise.types.vectors import Vectors

Conn = psycopg.Connection[tuple[Any, ...]]

DOC_COLUMNS = (
    "d.id, c.name, d.source, d.title, d.format, d.category, d.tags, d.content_hash, d.mtime,"
    " d.size, d.status, d.page_count, d.chunk_count, d.ingested_at, d.pipeline, d.fields"
)
_CHUNK_COLUMNS = (
    "ch.id, ch.doc_id, d.source, d.title, ch.section, ch.page_start, ch.page_end, ch.text,"
    " ch.parent_id"
)


def doc_info(row: Sequence[Any]) -> DocumentInfo:
    (doc_id, coll, source, title, fmt, category, tags, chash, mtime, size, status, pages,
     chunks, at, pipeline, fields) = row  # fmt: skip
    return DocumentInfo(
        doc_id=int(doc_id), collection=coll, source=source, title=title, format=fmt,
        category=category, tags=tuple(tags), content_hash=chash, mtime=float(mtime),
        size=int(size), status=status, page_count=pages, chunk_count=int(chunks),
        ingested_at=float(at), pipeline=pipeline,
        fields=None if fields is None else DocumentFields.from_json(fields),
    )  # fmt: skip


def get_chunks(
    conn: Conn, chunk_ids: Sequence[int], *, with_parents: bool = False
) -> list[ChunkRecord]:
    if not chunk_ids:
        return []
    parent = "p.text" if with_parents else "''"
    rows = conn.execute(
        f"SELECT {_CHUNK_COLUMNS}, {parent} FROM chunks ch"
        " JOIN documents d ON d.id = ch.doc_id JOIN parents p ON p.id = ch.parent_id"
        " WHERE ch.id = ANY(%s)",
        ([int(i) for i in chunk_ids],),
    ).fetchall()
    by_id = {int(r[0]): ChunkRecord(*r) for r in rows}
    return [by_id[i] for i in chunk_ids if i in by_id]


def document_chunks(conn: Conn, doc_id: int) -> list[ChunkRecord]:
    rows = conn.execute(
        f"SELECT {_CHUNK_COLUMNS}, p.text FROM chunks ch"
        " JOIN documents d ON d.id = ch.doc_id JOIN parents p ON p.id = ch.parent_id"
        " WHERE ch.doc_id = %s ORDER BY ch.ordinal",
        (doc_id,),
    ).fetchall()
    return [ChunkRecord(*r) for r in rows]


def preceding_chunks(conn: Conn, chunk_ids: Sequence[int]) -> dict[int, ChunkRecord]:
    return _chunks_before(conn, "ch.id", "ch.id = ANY(%s)", chunk_ids)


def chunks_before_parents(conn: Conn, parent_ids: Sequence[int]) -> dict[int, ChunkRecord]:
    return _chunks_before(
        conn,
        "ch.parent_id",
        "ch.parent_id = ANY(%s) AND ch.ordinal ="
        " (SELECT min(c.ordinal) FROM chunks c WHERE c.parent_id = ch.parent_id)",
        parent_ids,
    )


def _chunks_before(conn: Conn, key: str, where: str, ids: Sequence[int]) -> dict[int, ChunkRecord]:
    if not ids:
        return {}
    pairs = conn.execute(
        f"SELECT {key}, prev.id FROM chunks ch JOIN chunks prev"
        f" ON prev.doc_id = ch.doc_id AND prev.ordinal = ch.ordinal - 1 WHERE {where}",
        ([int(i) for i in ids],),
    ).fetchall()
    records = {r.chunk_id: r for r in get_chunks(conn, [int(p) for _, p in pairs])}
    return {int(k): records[int(p)] for k, p in pairs if int(p) in records}


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


def documents_titled(conn: Conn, collection: str, prefix: str) -> list[DocumentInfo]:
    start, inner = like_prefix_patterns(prefix)
    docs = _documents(
        conn,
        "c.name = %s AND d.status <> 'staged' AND (d.title ILIKE %s OR d.title ILIKE %s)",
        [collection, start, inner],
    )
    return [d for d in docs if title_starts(d.title, prefix)]


def collections(conn: Conn) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM collections ORDER BY name")]


def _find(conn: Conn, collection: str, source: str, staged: bool) -> DocumentInfo | None:
    row = conn.execute(
        f"SELECT {DOC_COLUMNS} FROM documents d JOIN collections c"
        " ON c.id = d.collection_id WHERE c.name = %s AND d.source = %s"
        f" AND d.status {'=' if staged else '<>'} 'staged'"
        f"{' AND NOT d.loading' if staged else ''} ORDER BY d.id DESC LIMIT 1",
        (collection, source),
    ).fetchone()
    return None if row is None else doc_info(row)


def find_document(conn: Conn, collection: str, source: str) -> DocumentInfo | None:
    return _find(conn, collection, source, staged=False)


def find_staged(conn: Conn, collection: str, source: str) -> DocumentInfo | None:
    return _find(conn, collection, source, staged=True)


def list_documents(conn: Conn, collection: str) -> list[DocumentInfo]:
    return _documents(conn, "c.name = %s AND d.status <> 'staged'", [collection])


def _documents(conn: Conn, where: str, params: Sequence[object]) -> list[DocumentInfo]:
    rows = conn.execute(
        f"SELECT {DOC_COLUMNS} FROM documents d JOIN collections c"
        f" ON c.id = d.collection_id WHERE {where} ORDER BY d.source",
        params,
    ).fetchall()
    return [doc_info(r) for r in rows]


def has_documents(conn: Conn, collection: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM documents d JOIN collections c ON c.id = d.collection_id"
        " WHERE c.name = %s AND d.status <> 'staged' LIMIT 1",
        (collection,),
    ).fetchone()
    return row is not None


def stats(conn: Conn) -> dict[str, int]:
    row = conn.execute(
        "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM parents),"
        " (SELECT count(*) FROM chunks), (SELECT count(*) FROM vectors)"
    ).fetchone()
    assert row is not None
    return dict(zip(("documents", "parents", "chunks", "vectors"), map(int, row), strict=True))


def _array(value: Any) -> Vectors:
    """pgvector's loader gives a `Vector` (or, in older versions, a numpy array)."""
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, np.float32)
