"""The store's reads, written once for both databases as functions over a `ReadConn`:
collections, one source's visible or staged version, a collection's documents (all, or by
title), counts, chunks by id, a document's chunks in reading order, and the chunk just
before a chunk or a parent (the lead-in of a passage), the chunks still lacking a vector."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from citewise.store.lookups import like_prefix_patterns
from citewise.store.sql.connection import ReadConn
from citewise.text.headings import title_starts
from citewise.types import ChunkRecord, DocumentFields, DocumentInfo
from citewise.types.positions import decode_boxes

DOC_COLUMNS = (
    "d.id, c.name, d.source, d.title, d.format, d.category, d.tags, d.content_hash, d.mtime,"
    " d.size, d.status, d.page_count, d.chunk_count, d.ingested_at, d.pipeline, d.fields"
)
_FROM_DOCUMENTS = "FROM documents d JOIN collections c ON c.id = d.collection_id"
_CHUNK_COLUMNS = (
    "ch.id, ch.doc_id, d.source, d.title, ch.section, ch.page_start, ch.page_end, ch.text,"
    " ch.parent_id, {parent}, d.content_hash, ch.label, {boxes}"
)
_FROM_CHUNKS = (
    "FROM chunks ch JOIN documents d ON d.id = ch.doc_id JOIN parents p ON p.id = ch.parent_id"
)


def collections(conn: ReadConn) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM collections ORDER BY name").fetchall()]


def collection_root(conn: ReadConn, collection: str) -> str | None:
    row = conn.execute("SELECT root FROM collections WHERE name = ?", (collection,)).fetchone()
    return None if row is None or row[0] is None else str(row[0])


def meta(conn: ReadConn, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def _find(conn: ReadConn, collection: str, source: str, where: str) -> DocumentInfo | None:
    row = conn.execute(
        f"SELECT {DOC_COLUMNS} {_FROM_DOCUMENTS} WHERE c.name = ? AND d.source = ? AND {where}"
        " ORDER BY d.id DESC LIMIT 1",
        (collection, source),
    ).fetchone()
    return None if row is None else doc_info(conn, row)


def find_document(conn: ReadConn, collection: str, source: str) -> DocumentInfo | None:
    return _find(conn, collection, source, "d.status <> 'staged'")


def find_staged(conn: ReadConn, collection: str, source: str) -> DocumentInfo | None:
    return _find(conn, collection, source, "d.status = 'staged' AND d.loading = FALSE")


def list_documents(conn: ReadConn, collection: str) -> list[DocumentInfo]:
    return _documents(conn, "c.name = ? AND d.status <> 'staged'", (collection,))


def documents_titled(conn: ReadConn, collection: str, prefix: str) -> list[DocumentInfo]:
    start, inner = like_prefix_patterns(prefix)
    docs = _documents(
        conn,
        "c.name = ? AND d.status <> 'staged'"
        f" AND (d.title {conn.title_like} OR d.title {conn.title_like})",
        (collection, start, inner),
    )
    return [d for d in docs if title_starts(d.title, prefix)]


def _documents(conn: ReadConn, where: str, params: Sequence[object]) -> list[DocumentInfo]:
    rows = conn.execute(
        f"SELECT {DOC_COLUMNS} {_FROM_DOCUMENTS} WHERE {where} ORDER BY d.source", params
    ).fetchall()
    return [doc_info(conn, r) for r in rows]


def has_documents(conn: ReadConn, collection: str) -> bool:
    row = conn.execute(
        f"SELECT 1 {_FROM_DOCUMENTS} WHERE c.name = ? AND d.status <> 'staged' LIMIT 1",
        (collection,),
    ).fetchone()
    return row is not None


def stats(conn: ReadConn) -> dict[str, int]:
    tables = ("documents", "parents", "chunks", "vectors")
    row = conn.execute(
        "SELECT " + ", ".join(f"(SELECT count(*) FROM {table})" for table in tables)
    ).fetchone()
    return dict(zip(tables, map(int, row), strict=True))


def doc_info(conn: ReadConn, row: Sequence[Any]) -> DocumentInfo:
    (doc_id, coll, source, title, fmt, category, tags, chash, mtime, size, status, pages,
     chunks, at, pipeline, fields) = row  # fmt: skip
    return DocumentInfo(
        doc_id=int(doc_id), collection=str(coll), source=str(source), title=str(title),
        format=str(fmt), category=str(category), tags=conn.tags_of(tags),
        content_hash=str(chash), mtime=float(mtime), size=int(size), status=status,
        page_count=None if pages is None else int(pages), chunk_count=int(chunks),
        ingested_at=float(at), pipeline=str(pipeline),
        fields=None if fields is None else DocumentFields.from_json(str(fields)),
    )  # fmt: skip


def _chunk_columns(conn: ReadConn, *, with_parents: bool) -> str:
    return _CHUNK_COLUMNS.format(parent="p.text" if with_parents else "''", boxes=conn.boxes_column)


def _record(row: Sequence[Any]) -> ChunkRecord:
    record = ChunkRecord(*row[:-2])
    record = replace(record, label=row[-2]) if row[-2] is not None else record
    return replace(record, boxes=decode_boxes(row[-1])) if row[-1] else record


def get_chunks(
    conn: ReadConn, chunk_ids: Sequence[int], *, with_parents: bool = False
) -> list[ChunkRecord]:
    if not chunk_ids:
        return []
    where, params = conn.any_of("ch.id", chunk_ids)
    rows = conn.execute(
        f"SELECT {_chunk_columns(conn, with_parents=with_parents)} {_FROM_CHUNKS} WHERE {where}",
        params,
    ).fetchall()
    by_id = {int(r[0]): _record(r) for r in rows}
    return [by_id[i] for i in chunk_ids if i in by_id]


def document_chunks(conn: ReadConn, doc_id: int) -> list[ChunkRecord]:
    rows = conn.execute(
        f"SELECT {_chunk_columns(conn, with_parents=True)} {_FROM_CHUNKS}"
        " WHERE ch.doc_id = ? ORDER BY ch.ordinal",
        (doc_id,),
    ).fetchall()
    return [_record(r) for r in rows]


def document_texts(
    conn: ReadConn, doc_id: int, limit: int | None = None
) -> list[tuple[int, str, str]]:
    sql = "SELECT id, text, section FROM chunks WHERE doc_id = ? ORDER BY ordinal"
    params: tuple[int, ...] = (doc_id,)
    if limit is not None:
        sql, params = f"{sql} LIMIT ?", (doc_id, limit)
    rows = conn.execute(sql, params).fetchall()
    return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]


def preceding_chunks(conn: ReadConn, chunk_ids: Sequence[int]) -> dict[int, ChunkRecord]:
    if not chunk_ids:
        return {}
    where, params = conn.any_of("ch.id", chunk_ids)
    return _chunks_beside(conn, "ch.id", where, params, -1)


def following_chunks(conn: ReadConn, chunk_ids: Sequence[int]) -> dict[int, ChunkRecord]:
    if not chunk_ids:
        return {}
    where, params = conn.any_of("ch.id", chunk_ids)
    return _chunks_beside(conn, "ch.id", where, params, 1)


def chunks_before_parents(conn: ReadConn, parent_ids: Sequence[int]) -> dict[int, ChunkRecord]:
    return _beside_parents(conn, parent_ids, "min", -1)


def chunks_after_parents(conn: ReadConn, parent_ids: Sequence[int]) -> dict[int, ChunkRecord]:
    return _beside_parents(conn, parent_ids, "max", 1)


def _beside_parents(
    conn: ReadConn, parent_ids: Sequence[int], end: str, step: int
) -> dict[int, ChunkRecord]:
    """By parent id, the chunk beside the parent's first (`end` "min") or last ("max") one."""
    if not parent_ids:
        return {}
    where, params = conn.any_of("ch.parent_id", parent_ids)
    return _chunks_beside(
        conn,
        "ch.parent_id",
        f"{where} AND ch.ordinal ="
        f" (SELECT {end}(c.ordinal) FROM chunks c WHERE c.parent_id = ch.parent_id)",
        params,
        step,
    )


def _chunks_beside(
    conn: ReadConn, key: str, where: str, params: Sequence[object], step: int
) -> dict[int, ChunkRecord]:
    """By `key` of the chunks `ch` matching `where`, the chunk `step` places away in reading
    order (-1: just before, 1: just after)."""
    pairs = conn.execute(
        f"SELECT {key}, nb.id FROM chunks ch JOIN chunks nb"
        f" ON nb.doc_id = ch.doc_id AND nb.ordinal = ch.ordinal + ({int(step)}) WHERE {where}",
        params,
    ).fetchall()
    records = {r.chunk_id: r for r in get_chunks(conn, [int(p) for _, p in pairs])}
    return {int(k): records[int(p)] for k, p in pairs if int(p) in records}


def chunks_missing_vectors(
    conn: ReadConn, limit: int, after_id: int = 0, *, doc_id: int | None = None
) -> list[tuple[int, str]]:
    one_doc = "" if doc_id is None else " AND doc_id = ?"
    rows = conn.execute(
        f"SELECT id, embed_text FROM chunks WHERE has_vector = FALSE AND id > ?{one_doc}"
        " ORDER BY id LIMIT ?",
        (after_id, *(() if doc_id is None else (doc_id,)), limit),
    ).fetchall()
    return [(int(r[0]), str(r[1])) for r in rows]


def count_missing_vectors(conn: ReadConn) -> int:
    row = conn.execute("SELECT count(*) FROM chunks WHERE has_vector = FALSE").fetchone()
    return int(row[0])
