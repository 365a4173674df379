"""The SQLite store's searches, as functions over a connection: keyword (FTS5 BM25, the
ranking computed from the index's postings by `bm25` when it can), the genre heading
lookup, and vector search: exact over one contiguous matrix per small collection, HNSW for
a large one, kept until the store changes (`PartitionCache`)."""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Sequence
from functools import partial

import numpy as np

from citewise.errors import StoreError
from citewise.store.sql.writes import collection_id
from citewise.store.sqlite import bm25
from citewise.store.sqlite.ann import AnnIndexes, active_rows, vectors_of
from citewise.store.sqlite.writes import generation
from citewise.store.terms import fts5_match, search_terms
from citewise.store.vector_index import Partition, VectorBackend
from citewise.text.headings import heading_names, last_heading
from citewise.types import Candidate, SearchFilter
from citewise.types.vectors import Vectors


def filter_sql(flt: SearchFilter) -> tuple[str, list[object]]:
    sql = " AND d.status != 'staged'"
    args: list[object] = []
    if flt.sources:
        sql += f" AND d.source IN ({','.join('?' * len(flt.sources))})"
        args.extend(flt.sources)
    if flt.category is not None:
        sql += " AND d.category = ?"
        args.append(flt.category)
    for tag in flt.tags:
        sql += " AND EXISTS (SELECT 1 FROM json_each(d.tags) WHERE json_each.value = ?)"
        args.append(tag)
    return sql, args


# the columns' weights in the BM25 ranking (title, section, text: the table's order)
KEYWORD_WEIGHTS = {"title": 4.0, "section": 2.0, "text": 1.0}
_BM25 = f"bm25(chunks_fts, {', '.join(map(str, KEYWORD_WEIGHTS.values()))})"


def keyword_search(
    conn: sqlite3.Connection, terms: Sequence[str], flt: SearchFilter, k: int
) -> list[Candidate]:
    match = fts5_match(terms)
    cid = collection_id(conn, flt.collection)
    if cid is None or not match:
        return []
    where, args = filter_sql(flt)
    try:
        rows = _index_first(conn, search_terms(terms), cid, where, args, k)
        if rows is None:
            rows = conn.execute(
                f"SELECT f.rowid, {_BM25} AS score FROM chunks_fts f"
                " JOIN chunks ch INDEXED BY chunks_scope ON ch.id = f.rowid"
                " JOIN documents d ON d.id = ch.doc_id"
                f" WHERE chunks_fts MATCH ? AND ch.collection_id = ?{where}"
                " ORDER BY score LIMIT ?",
                (match, cid, *args, k),
            ).fetchall()
    except sqlite3.OperationalError as exc:
        raise StoreError(f"keyword search failed for {match!r}: {exc}") from exc
    return [Candidate(int(r[0]), i + 1, -float(r[1])) for i, r in enumerate(rows)]


def _index_first(
    conn: sqlite3.Connection, tokens: list[str], cid: int, where: str, args: list[object], k: int
) -> list[tuple[int, float]] | None:
    """The ranking from the full-text index alone, the few rows it names checked against the
    collection and filter afterwards: the same rows in the same order as the joined query
    when the checked rows hold the top `k` with no tie at the cut-off; else None. Worth it
    only where the collection holds most of the chunks (the joined query runs then). The
    ranking is `bm25.ranked`'s when it can give it (the same), else FTS5's."""
    database = _database_file(conn)
    if k < 1 or not _mostly(conn, database, cid):
        return None
    depth = k * INDEX_FIRST_DEPTH
    ranked = bm25.ranked(conn, database, tokens, KEYWORD_WEIGHTS, depth)
    if ranked is None:
        ranked = conn.execute(
            f"SELECT rowid, {_BM25} AS score FROM chunks_fts"
            " WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?",
            (fts5_match(tokens), depth),
        ).fetchall()
    if not ranked:
        return []
    ids = [int(r[0]) for r in ranked]
    kept = {
        int(r[0])
        for r in conn.execute(
            "SELECT ch.id FROM chunks ch JOIN documents d ON d.id = ch.doc_id"
            f" WHERE ch.id IN ({','.join('?' * len(ids))}) AND ch.collection_id = ?{where}",
            (*ids, cid, *args),
        )
    }
    rows = [(int(r[0]), float(r[1])) for r in ranked if int(r[0]) in kept][:k]
    if len(ranked) < depth:  # the index named every match
        return rows
    # rows past the cut-off score at least the last one read: none may reach the top k
    if len(rows) == k and rows[-1][1] < float(ranked[-1][1]):
        return rows
    return None


# how deep the index-first ranking reads, in multiples of k
INDEX_FIRST_DEPTH = 2
# the share of the store's chunks a collection must hold for the index-first ranking
INDEX_FIRST_SHARE = 0.5
_shares: dict[tuple[str, int, int], bool] = {}
_shares_lock = threading.Lock()


def _mostly(conn: sqlite3.Connection, database: str, cid: int) -> bool:
    """Whether collection `cid` holds most of the store's chunks (kept per generation)."""
    key = (database, cid, generation(conn))
    with _shares_lock:
        known = _shares.get(key)
    if known is not None:
        return known
    mine, total = conn.execute(
        "SELECT (SELECT count(*) FROM chunks WHERE collection_id = ?),"
        " (SELECT count(*) FROM chunks)",
        (cid,),
    ).fetchone()
    mostly = bool(total) and mine >= INDEX_FIRST_SHARE * total
    with _shares_lock:
        if len(_shares) > 1024:
            _shares.clear()
        _shares[key] = mostly
    return mostly


def _database_file(conn: sqlite3.Connection) -> str:
    return str(conn.execute("PRAGMA database_list").fetchone()[2])


def heading_search(
    conn: sqlite3.Connection, name: str, flt: SearchFilter, k: int
) -> list[Candidate]:
    cid = collection_id(conn, flt.collection)
    words = re.findall(r"[^\W_]+", name)
    if cid is None or not words or k < 1:
        return []
    where, args = filter_sql(flt)
    # the index finds the sections holding the name's words; the heading test is exact
    rows = conn.execute(
        "SELECT f.rowid, f.section FROM chunks_fts f"
        " JOIN chunks ch ON ch.id = f.rowid JOIN documents d ON d.id = ch.doc_id"
        f" WHERE chunks_fts MATCH ? AND ch.collection_id = ?{where} ORDER BY f.rowid",
        (f'section : "{" ".join(words)}"', cid, *args),
    ).fetchall()
    found = [int(r[0]) for r in rows if heading_names(last_heading(r[1]), name)][:k]
    return [Candidate(chunk_id, i + 1, 1.0) for i, chunk_id in enumerate(found)]


class PartitionCache:
    """Per collection, one contiguous matrix of vectors (exact search) or, from
    `ann.exact_below` vectors on, an HNSW index kept in step with the store; refreshed when
    the store's generation changes and shared by every thread and store object of one file
    (`SharedFileState`)."""

    def __init__(
        self, partitions: dict[int, Partition], lock: threading.Lock, ann: AnnIndexes
    ) -> None:
        self._partitions = partitions
        self._lock = lock
        self._ann = ann

    def backend(self, conn: sqlite3.Connection, cid: int) -> VectorBackend:
        current = generation(conn)
        with self._lock:
            cached = self._partitions.get(cid)
            if cached is not None and cached.generation == current:
                return cached
            indexed = self._ann.current(cid, current)
            if indexed is not None:
                return indexed.bound(partial(vectors_of, conn))
            stored = conn.execute(
                "SELECT count(*) FROM vectors WHERE collection_id = ?", (cid,)
            ).fetchone()[0]
            if int(stored) >= self._ann.exact_below:
                active = active_rows(conn, cid)
                if active[0].shape[0] >= self._ann.exact_below:
                    dim = conn.execute(
                        "SELECT length(vec) / 4 FROM vectors WHERE collection_id = ? LIMIT 1",
                        (cid,),
                    ).fetchone()[0]
                    index = self._ann.synced(conn, cid, active, int(dim), current)
                    self._partitions.pop(cid, None)
                    return index.bound(partial(vectors_of, conn))
            self._ann.drop(cid)
            rows = conn.execute(
                "SELECT v.chunk_id, v.vec FROM vectors v JOIN chunks ch ON ch.id = v.chunk_id"
                " JOIN documents d ON d.id = ch.doc_id"
                " WHERE v.collection_id = ? AND d.status != 'staged' ORDER BY v.chunk_id",
                (cid,),
            ).fetchall()
            part = Partition.from_blobs(current, rows)
            self._partitions[cid] = part
            return part


def vector_search(
    conn: sqlite3.Connection, cache: PartitionCache, query: Vectors, flt: SearchFilter, k: int
) -> list[Candidate]:
    cid = collection_id(conn, flt.collection)
    if cid is None:
        return []
    backend = cache.backend(conn, cid)
    allowed = None
    if flt.sources or flt.category is not None or flt.tags:
        where, args = filter_sql(flt)
        ids = conn.execute(
            "SELECT ch.id FROM chunks ch JOIN documents d ON d.id = ch.doc_id"
            f" WHERE ch.collection_id = ?{where}",
            (cid, *args),
        ).fetchall()
        allowed = np.fromiter((r[0] for r in ids), dtype=np.int64, count=len(ids))
    pairs = backend.search(query, k, allowed)
    return [Candidate(cid_, i + 1, score) for i, (cid_, score) in enumerate(pairs)]


def get_vectors(conn: sqlite3.Connection, chunk_ids: Sequence[int]) -> dict[int, Vectors]:
    if not chunk_ids:
        return {}
    rows = conn.execute(
        "SELECT chunk_id, vec FROM vectors WHERE chunk_id IN ("
        + ",".join("?" * len(chunk_ids))
        + ")",
        tuple(chunk_ids),
    ).fetchall()
    return {int(r[0]): np.frombuffer(r[1], dtype=np.float32) for r in rows}
