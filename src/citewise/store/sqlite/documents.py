"""The SQLite store's document reads, as functions over a connection: collections, one
source's visible or staged version, a collection's documents (all, or by title), counts."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from citewise.store.genre import like_prefix_patterns
from citewise.store.sql.writes import collection_id
from citewise.text.headings import title_starts
from citewise.types import DocumentFields, DocumentInfo

DOC_COLUMNS = (
    "d.id, c.name, d.source, d.title, d.format, d.category, d.tags, d.content_hash, d.mtime,"
    " d.size, d.status, d.page_count, d.chunk_count, d.ingested_at, d.pipeline, d.fields"
)


def collections(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM collections ORDER BY name")]


def _find(
    conn: sqlite3.Connection,
    collection: str,
    source: str,
    statuses: tuple[str, ...],
    *,
    complete: bool = False,
) -> DocumentInfo | None:
    marks = ",".join("?" * len(statuses))
    loaded = " AND d.loading = 0" if complete else ""
    row = conn.execute(
        f"SELECT {DOC_COLUMNS} FROM documents d JOIN collections c ON c.id = d.collection_id"
        f" WHERE c.name = ? AND d.source = ? AND d.status IN ({marks}){loaded}"
        " ORDER BY d.id DESC",
        (collection, source, *statuses),
    ).fetchone()
    return doc_info(row) if row else None


def find_document(conn: sqlite3.Connection, collection: str, source: str) -> DocumentInfo | None:
    return _find(conn, collection, source, ("indexing", "ready"))


def find_staged(conn: sqlite3.Connection, collection: str, source: str) -> DocumentInfo | None:
    return _find(conn, collection, source, ("staged",), complete=True)


def list_documents(conn: sqlite3.Connection, collection: str) -> list[DocumentInfo]:
    return _documents(conn, "c.name = ? AND d.status != 'staged'", [collection])


def documents_titled(conn: sqlite3.Connection, collection: str, prefix: str) -> list[DocumentInfo]:
    start, inner = like_prefix_patterns(prefix)
    docs = _documents(
        conn,
        "c.name = ? AND d.status != 'staged'"
        " AND (d.title LIKE ? ESCAPE '\\' OR d.title LIKE ? ESCAPE '\\')",
        [collection, start, inner],
    )
    return [d for d in docs if title_starts(d.title, prefix)]


def _documents(conn: sqlite3.Connection, where: str, params: list[object]) -> list[DocumentInfo]:
    rows = conn.execute(
        f"SELECT {DOC_COLUMNS} FROM documents d JOIN collections c ON c.id = d.collection_id"
        f" WHERE {where} ORDER BY d.source",
        params,
    ).fetchall()
    return [doc_info(r) for r in rows]


def has_documents(conn: sqlite3.Connection, collection: str) -> bool:
    cid = collection_id(conn, collection)
    if cid is None:
        return False
    row = conn.execute(
        "SELECT 1 FROM documents WHERE collection_id = ? AND status != 'staged' LIMIT 1",
        (cid,),
    ).fetchone()
    return row is not None


def stats(conn: sqlite3.Connection) -> dict[str, int]:
    out: dict[str, int] = {}
    for table in ("documents", "parents", "chunks", "vectors"):
        out[table] = int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    return out


def doc_info(row: Sequence[object]) -> DocumentInfo:
    (doc_id, coll, source, title, fmt, category, tags, chash, mtime, size, status, pages,
     chunks, at, pipeline, fields) = row  # fmt: skip
    return DocumentInfo(
        doc_id=int(str(doc_id)), collection=str(coll), source=str(source), title=str(title),
        format=str(fmt), category=str(category), tags=tuple(json.loads(str(tags) or "[]")),
        content_hash=str(chash), mtime=float(str(mtime)), size=int(str(size)),
        status=status,  # type: ignore[arg-type]
        page_count=None if pages is None else int(str(pages)), chunk_count=int(str(chunks)),
        ingested_at=float(str(at)), pipeline=str(pipeline),
        fields=None if fields is None else DocumentFields.from_json(str(fields)),
    )  # fmt: skip
