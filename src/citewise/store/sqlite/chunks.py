"""The SQLite store's chunk reads: chunks by id, a document's chunks in reading order, and
the chunk just before a chunk or a parent (the lead-in of a passage)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from citewise.types import ChunkRecord
from citewise.types.positions import decode_boxes

_COLUMNS = (
    "ch.id, ch.doc_id, d.source, d.title, ch.section, ch.page_start, ch.page_end, ch.text,"
    " ch.parent_id, {parent}, d.content_hash, ch.boxes"
)


def _record(row: tuple[Any, ...]) -> ChunkRecord:
    record = ChunkRecord(*row[:-1])
    return replace(record, boxes=decode_boxes(row[-1])) if row[-1] else record


def get_chunks(
    conn: sqlite3.Connection, chunk_ids: Sequence[int], *, with_parents: bool = False
) -> list[ChunkRecord]:
    if not chunk_ids:
        return []
    parent_col = "p.text" if with_parents else "''"
    rows = conn.execute(
        f"SELECT {_COLUMNS.format(parent=parent_col)} FROM chunks ch"
        " JOIN documents d ON d.id = ch.doc_id JOIN parents p ON p.id = ch.parent_id"
        f" WHERE ch.id IN ({','.join('?' * len(chunk_ids))})",
        tuple(chunk_ids),
    ).fetchall()
    by_id = {int(r[0]): _record(r) for r in rows}
    return [by_id[i] for i in chunk_ids if i in by_id]


def document_chunks(conn: sqlite3.Connection, doc_id: int) -> list[ChunkRecord]:
    rows = conn.execute(
        f"SELECT {_COLUMNS.format(parent='p.text')} FROM chunks ch"
        " JOIN documents d ON d.id = ch.doc_id JOIN parents p ON p.id = ch.parent_id"
        " WHERE ch.doc_id = ? ORDER BY ch.ordinal",
        (doc_id,),
    ).fetchall()
    return [_record(r) for r in rows]


def preceding_chunks(conn: sqlite3.Connection, chunk_ids: Sequence[int]) -> dict[int, ChunkRecord]:
    return _chunks_before(conn, "ch.id", f"ch.id IN ({','.join('?' * len(chunk_ids))})", chunk_ids)


def chunks_before_parents(
    conn: sqlite3.Connection, parent_ids: Sequence[int]
) -> dict[int, ChunkRecord]:
    return _chunks_before(
        conn,
        "ch.parent_id",
        f"ch.parent_id IN ({','.join('?' * len(parent_ids))}) AND ch.ordinal ="
        " (SELECT MIN(c.ordinal) FROM chunks c WHERE c.parent_id = ch.parent_id)",
        parent_ids,
    )


def _chunks_before(
    conn: sqlite3.Connection, key: str, where: str, ids: Sequence[int]
) -> dict[int, ChunkRecord]:
    """By `key` of the chunks `ch` matching `where`, the chunk just before each."""
    if not ids:
        return {}
    pairs = conn.execute(
        f"SELECT {key}, prev.id FROM chunks ch JOIN chunks prev"
        f" ON prev.doc_id = ch.doc_id AND prev.ordinal = ch.ordinal - 1 WHERE {where}",
        tuple(ids),
    ).fetchall()
    records = {r.chunk_id: r for r in get_chunks(conn, [int(p) for _, p in pairs])}
    return {int(k): records[int(p)] for k, p in pairs if int(p) in records}
