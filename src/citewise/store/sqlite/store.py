"""The embedded default store: one SQLite file in WAL mode holding every index."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from citewise.db.sqlite import ThreadConnections, shared_state
from citewise.errors import StoreError
from citewise.store.genre import like_prefix_patterns
from citewise.store.sqlite.chunks import ChunkReads
from citewise.store.sqlite.schema import apply_schema
from citewise.store.sqlite.search import SearchReads
from citewise.store.sqlite.stream import StreamWrites
from citewise.store.sqlite.vectors import VectorWrites
from citewise.text.headings import title_starts
from citewise.types import ChunkedDocument, DocumentInfo, NewDocument
from citewise.types.positions import encode_boxes

_DOC_COLUMNS = (
    "d.id, c.name, d.source, d.title, d.format, d.category, d.tags, d.content_hash, d.mtime,"
    " d.size, d.status, d.page_count, d.chunk_count, d.ingested_at, d.pipeline"
)


class SQLiteStore(SearchReads, ChunkReads, StreamWrites, VectorWrites):
    """Thread-safe: each thread reads through its own connection, writes are serialized by
    one lock per database file, and the vector cache is shared by every thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._connections = ThreadConnections(self._connect)
        try:
            apply_schema(self._conn)
        except sqlite3.DatabaseError as exc:
            self._connections.close_all()
            raise StoreError(f"cannot open the store at {path}: {exc}") from exc
        shared = shared_state(path)
        self._partitions = shared.partitions
        self._lock = shared.cache_lock
        self._write_lock = shared.write_lock

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self.path, timeout=30.0, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the store at {self.path}: {exc}") from exc
        return conn

    @property
    def _conn(self) -> sqlite3.Connection:
        return self._connections.get()

    def close(self) -> None:
        self._connections.close_all()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        with self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            else:
                conn.execute("COMMIT")

    def _bump_generation(self) -> None:
        self._conn.execute(
            "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'"
        )

    def _generation(self) -> int:
        row = self._conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0])

    def _collection_id(self, name: str, *, create: bool = False) -> int | None:
        row = self._conn.execute("SELECT id FROM collections WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        if not create:
            return None
        cur = self._conn.execute(
            "INSERT INTO collections(name, created_at) VALUES (?, ?)", (name, time.time())
        )
        return int(cur.lastrowid or 0)

    def collections(self) -> list[str]:
        return [r[0] for r in self._conn.execute("SELECT name FROM collections ORDER BY name")]

    # -- documents -------------------------------------------------------------------

    def _find(
        self, collection: str, source: str, statuses: tuple[str, ...], *, complete: bool = False
    ) -> DocumentInfo | None:
        marks = ",".join("?" * len(statuses))
        loaded = " AND d.loading = 0" if complete else ""
        row = self._conn.execute(
            f"SELECT {_DOC_COLUMNS} FROM documents d JOIN collections c ON c.id = d.collection_id"
            f" WHERE c.name = ? AND d.source = ? AND d.status IN ({marks}){loaded}"
            " ORDER BY d.id DESC",
            (collection, source, *statuses),
        ).fetchone()
        return _doc_info(row) if row else None

    def find_document(self, collection: str, source: str) -> DocumentInfo | None:
        return self._find(collection, source, ("indexing", "ready"))

    def find_staged(self, collection: str, source: str) -> DocumentInfo | None:
        return self._find(collection, source, ("staged",), complete=True)

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see one state of the store (a WAL read transaction), so a replace
        committed meanwhile cannot remove chunks a ranking already named."""
        if self._conn.in_transaction:
            yield
            return
        self._conn.execute("BEGIN")
        try:
            yield
        finally:
            if self._conn.in_transaction:
                self._conn.execute("COMMIT")

    def _settle(self, cid: int, new: NewDocument, replaces: int | None) -> tuple[int | None, int]:
        """What another process did to this source since the caller looked decides: the same
        version stored already (its id, nothing to add), or the live version to replace.
        Older staged versions give way. Returns (replaces, existing id or 0)."""
        rows = self._conn.execute(
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
                self._delete(int(doc_id))
        return (live[0] if live else None), 0

    def add_document(self, new: NewDocument, *, replaces: int | None = None) -> int:
        with self._tx():
            cid = self._collection_id(new.collection, create=True)
            assert cid is not None
            replaces, existing = self._settle(cid, new, replaces)
            if existing:
                return existing
            status = "staged" if replaces is not None else "indexing"
            doc_id = self._insert_document(cid, new, status, replaces, len(new.chunks.children))
            self._insert_chunks(doc_id, cid, new.title, new.chunks)
            if replaces is not None:
                self._reuse_vectors(doc_id, replaces)
        return doc_id

    def _insert_document(
        self,
        cid: int,
        new: NewDocument,
        status: str,
        replaces: int | None,
        chunk_count: int,
        *,
        loading: bool = False,
    ) -> int:
        """The document row of `new` (inside the caller's transaction); returns its id."""
        cur = self._conn.execute(
            "INSERT INTO documents(collection_id, source, title, format, category, tags,"
            " content_hash, mtime, size, status, replaces, page_count, chunk_count,"
            " ingested_at, pipeline, loading) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                cid, new.source, new.title, new.format, new.category, json.dumps(new.tags),
                new.content_hash, new.mtime, new.size, status, replaces, new.page_count,
                chunk_count, time.time(), new.pipeline, int(loading),
            ),
        )  # fmt: skip
        return int(cur.lastrowid or 0)

    def _insert_chunks(self, doc_id: int, cid: int, title: str, chunks: ChunkedDocument) -> int:
        """Inserts parents, chunks and keyword rows; returns the first chunk's id (0: none).
        A child's parent is among `chunks.parents` (matched by ordinal)."""
        conn = self._conn
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

    def _reuse_vectors(self, doc_id: int, old_doc_id: int, first_chunk: int = 0) -> None:
        """A new version's chunks (those from id `first_chunk` on) whose embedded text the
        old version has take its vectors: an edit, or a re-parse after an upgrade, re-embeds
        only what changed. Equal texts are looked up by hash (an index), not compared all
        against all."""
        self._conn.execute(
            "INSERT INTO vectors(chunk_id, collection_id, vec)"
            " SELECT n.id, n.collection_id, v.vec FROM chunks n"
            " JOIN chunks o ON o.doc_id = ? AND o.content_hash = n.content_hash"
            " AND o.embed_text = n.embed_text"
            " JOIN vectors v ON v.chunk_id = o.id"
            " WHERE n.doc_id = ? AND n.id >= ? AND n.has_vector = 0 GROUP BY n.id",
            (old_doc_id, doc_id, first_chunk),
        )
        self._conn.execute(
            "UPDATE chunks SET has_vector = 1 WHERE doc_id = ? AND id >= ? AND has_vector = 0"
            " AND EXISTS (SELECT 1 FROM vectors WHERE vectors.chunk_id = chunks.id)",
            (doc_id, first_chunk),
        )

    def delete_document(self, doc_id: int) -> None:
        with self._tx():
            self._delete(doc_id)
            self._bump_generation()

    def _delete(self, doc_id: int) -> None:
        self._conn.execute(
            "DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ?)",
            (doc_id,),
        )
        self._conn.execute(
            "DELETE FROM vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE doc_id = ?)",
            (doc_id,),
        )
        self._conn.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
        self._conn.execute("DELETE FROM parents WHERE doc_id = ?", (doc_id,))
        self._conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    def list_documents(self, collection: str) -> list[DocumentInfo]:
        return self._documents("c.name = ? AND d.status != 'staged'", [collection])

    def documents_titled(self, collection: str, prefix: str) -> list[DocumentInfo]:
        start, inner = like_prefix_patterns(prefix)
        docs = self._documents(
            "c.name = ? AND d.status != 'staged'"
            " AND (d.title LIKE ? ESCAPE '\\' OR d.title LIKE ? ESCAPE '\\')",
            [collection, start, inner],
        )
        return [d for d in docs if title_starts(d.title, prefix)]

    def _documents(self, where: str, params: list[object]) -> list[DocumentInfo]:
        rows = self._conn.execute(
            f"SELECT {_DOC_COLUMNS} FROM documents d JOIN collections c ON c.id = d.collection_id"
            f" WHERE {where} ORDER BY d.source",
            params,
        ).fetchall()
        return [_doc_info(r) for r in rows]

    # -- vectors ---------------------------------------------------------------------

    def has_documents(self, collection: str) -> bool:
        cid = self._collection_id(collection)
        if cid is None:
            return False
        row = self._conn.execute(
            "SELECT 1 FROM documents WHERE collection_id = ? AND status != 'staged' LIMIT 1",
            (cid,),
        ).fetchone()
        return row is not None

    def finalize(self) -> list[int]:
        with self._tx() as conn:
            done = conn.execute(
                "SELECT id, replaces FROM documents WHERE status != 'ready' AND loading = 0"
                " AND NOT EXISTS"
                " (SELECT 1 FROM chunks WHERE chunks.doc_id = documents.id AND has_vector = 0)"
            ).fetchall()
            for doc_id, replaces in done:
                if replaces is not None:
                    self._delete(int(replaces))
                conn.execute(
                    "UPDATE documents SET status = 'ready', replaces = NULL WHERE id = ?",
                    (doc_id,),
                )
            if done:
                self._bump_generation()
        return [int(d[0]) for d in done]

    def stats(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for table in ("documents", "parents", "chunks", "vectors"):
            out[table] = int(self._conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        return out


def _doc_info(row: Sequence[object]) -> DocumentInfo:
    (doc_id, coll, source, title, fmt, category, tags, chash, mtime, size, status, pages,
     chunks, at, pipeline) = row  # fmt: skip
    return DocumentInfo(
        doc_id=int(str(doc_id)), collection=str(coll), source=str(source), title=str(title),
        format=str(fmt), category=str(category), tags=tuple(json.loads(str(tags) or "[]")),
        content_hash=str(chash), mtime=float(str(mtime)), size=int(str(size)),
        status=status,  # type: ignore[arg-type]
        page_count=None if pages is None else int(str(pages)), chunk_count=int(str(chunks)),
        ingested_at=float(str(at)), pipeline=str(pipeline),
    )  # fmt: skip
