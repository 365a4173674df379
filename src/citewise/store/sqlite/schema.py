"""Schema of the embedded SQLite store (one file, WAL): the tables, and the numbered
migrations (`db.migrations`) that bring any earlier store to them."""

from __future__ import annotations

import sqlite3

from citewise.db.migrations import Migration, add_column, migrate, run_script
from citewise.graph import sqlite as graph_tables
from citewise.store.sql.labels import label_unlabelled

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS collections (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    collection_id INTEGER NOT NULL REFERENCES collections(id),
    source TEXT NOT NULL,
    title TEXT NOT NULL,
    format TEXT NOT NULL,
    category TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '',
    content_hash TEXT NOT NULL,
    mtime REAL NOT NULL,
    size INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('staged', 'indexing', 'ready')),
    replaces INTEGER,
    page_count INTEGER,
    chunk_count INTEGER NOT NULL,
    ingested_at REAL NOT NULL,
    pipeline TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS documents_by_source ON documents(collection_id, source);
CREATE INDEX IF NOT EXISTS documents_by_status ON documents(status);
CREATE TABLE IF NOT EXISTS parents (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    text TEXT NOT NULL,
    section TEXT NOT NULL,
    page_start INTEGER,
    page_end INTEGER
);
CREATE INDEX IF NOT EXISTS parents_by_doc ON parents(doc_id);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    parent_id INTEGER NOT NULL REFERENCES parents(id) ON DELETE CASCADE,
    collection_id INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    text TEXT NOT NULL,
    embed_text TEXT NOT NULL,
    section TEXT NOT NULL,
    page_start INTEGER,
    page_end INTEGER,
    content_hash TEXT NOT NULL,
    has_vector INTEGER NOT NULL DEFAULT 0,
    boxes TEXT
);
CREATE INDEX IF NOT EXISTS chunks_by_doc ON chunks(doc_id);
-- a replacement takes the vectors of the old version's equal chunks: looked up by hash
CREATE INDEX IF NOT EXISTS chunks_by_doc_hash ON chunks(doc_id, content_hash);
-- deleting a parent checks its chunks (ON DELETE CASCADE): without this, a scan of all chunks
CREATE INDEX IF NOT EXISTS chunks_by_parent ON chunks(parent_id);
CREATE INDEX IF NOT EXISTS chunks_missing_vector ON chunks(has_vector, id);
-- keyword search checks each FTS match's collection and document: from this index, without
-- reading the chunk's row (its text): on the dev corpus 1.4–2x faster per search
CREATE INDEX IF NOT EXISTS chunks_scope ON chunks(id, collection_id, doc_id);
CREATE TABLE IF NOT EXISTS vectors (
    chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
    collection_id INTEGER NOT NULL,
    vec BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS vectors_by_collection ON vectors(collection_id);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    title, section, text, tokenize = "unicode61 remove_diacritics 2"
);
"""


def _columns_added_in_place(conn: sqlite3.Connection) -> None:
    # a store of version 1 was changed in place by later releases: what it may lack
    run_script(SCHEMA)(conn)
    # stores made before a column get it; their documents are re-parsed on next ingest
    add_column("documents", "pipeline", "TEXT NOT NULL DEFAULT ''")(conn)
    add_column("chunks", "boxes", "TEXT")(conn)  # JSON line rectangles (positions.py)
    # 1 while a streamed document's chunks are still being appended (it stays staged)
    add_column("documents", "loading", "INTEGER NOT NULL DEFAULT 0")(conn)
    # JSON `DocumentFields`; NULL: stored before documents were described
    add_column("documents", "fields", "TEXT")(conn)
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('generation', '0')")
    graph_tables.apply_schema(conn)


def _embed_hash(conn: sqlite3.Connection) -> None:
    add_column("chunks", "embed_hash", "TEXT")(conn)
    conn.execute("CREATE INDEX IF NOT EXISTS chunks_by_embed_hash ON chunks(embed_hash)")


def _chunk_labels(conn: sqlite3.Connection) -> None:
    add_column("chunks", "label", "TEXT")(conn)
    label_unlabelled(conn)  # the backfill: chunks stored before get their labels now


# Append only: a released migration is never edited (a store that ran it will not run it
# again). A new column is one more entry, e.g.
#     Migration(6, "chunk notes", add_column("chunks", "note", "TEXT")),
# and the PostgreSQL list (`store.postgres.schema`) gets the same change (docs/upgrades.md).
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "documents, chunks, vectors and the keyword index", run_script(SCHEMA)),
    Migration(2, "what release 2f6bcc7 added in place", _columns_added_in_place),
    # the folder a collection's sources are relative to (NULL: none recorded yet)
    Migration(3, "source roots", add_column("collections", "root", "TEXT")),
    # SHA-1 of the whitespace-normalised embedded text (`text.embed_key`): chunks of equal
    # text share one vector; NULL: stored before, embedded as before
    Migration(4, "embedded-text hash", _embed_hash),
    # the framing block each chunk is (`text.blocks`: "signature", "contents"…; "" none),
    # read once at ingest instead of at every search; stored chunks are labelled here
    Migration(5, "chunk labels", _chunk_labels),
)
SCHEMA_VERSION = len(MIGRATIONS)


def apply_schema(conn: sqlite3.Connection) -> list[int]:
    """Brings the store to `SCHEMA_VERSION`; returns the migrations it applied."""
    return migrate(conn, MIGRATIONS)
