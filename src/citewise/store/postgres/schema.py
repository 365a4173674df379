"""Schema of the PostgreSQL store as named migrations (`db.postgres.migrate` applies them
once each, in order, each in one transaction, under an advisory lock: several processes may
start at once). The store's schema version is how many of them ran."""

from __future__ import annotations

import re
from collections.abc import Iterable

from citewise.errors import StoreError
from citewise.graph.postgres_schema import MIGRATIONS as GRAPH_MIGRATIONS

MIGRATIONS: tuple[tuple[str, str], ...] = (
    ("0001_vector_extension", "CREATE EXTENSION IF NOT EXISTS vector"),
    (
        "0002_documents",
        """
        CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
        CREATE TABLE collections (
            id serial PRIMARY KEY,
            name text NOT NULL UNIQUE,
            created_at double precision NOT NULL
        );
        CREATE TABLE documents (
            id bigserial PRIMARY KEY,
            collection_id integer NOT NULL REFERENCES collections(id),
            source text NOT NULL,
            title text NOT NULL,
            format text NOT NULL,
            category text NOT NULL DEFAULT '',
            tags text[] NOT NULL DEFAULT '{}',
            content_hash text NOT NULL,
            mtime double precision NOT NULL,
            size bigint NOT NULL,
            status text NOT NULL CHECK (status IN ('staged', 'indexing', 'ready')),
            replaces bigint,
            page_count integer,
            chunk_count integer NOT NULL,
            ingested_at double precision NOT NULL,
            pipeline text NOT NULL DEFAULT ''
        );
        -- one visible and at most one staged version per source: two workers that ingest
        -- the same file at once cannot both store it
        CREATE UNIQUE INDEX documents_visible ON documents (collection_id, source)
            WHERE status <> 'staged';
        CREATE UNIQUE INDEX documents_staged ON documents (collection_id, source)
            WHERE status = 'staged';
        CREATE INDEX documents_unready ON documents (id) WHERE status <> 'ready';
        CREATE TABLE parents (
            id bigserial PRIMARY KEY,
            doc_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            ordinal integer NOT NULL,
            text text NOT NULL,
            section text NOT NULL,
            page_start integer,
            page_end integer
        );
        CREATE INDEX parents_by_doc ON parents (doc_id);
        """,
    ),
    (
        "0003_chunks_and_keyword_index",
        """
        CREATE TABLE chunks (
            id bigserial PRIMARY KEY,
            doc_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            parent_id bigint NOT NULL REFERENCES parents(id) ON DELETE CASCADE,
            collection_id integer NOT NULL,
            ordinal integer NOT NULL,
            text text NOT NULL,
            embed_text text NOT NULL,
            section text NOT NULL,
            page_start integer,
            page_end integer,
            content_hash text NOT NULL,
            has_vector boolean NOT NULL DEFAULT false,
            -- title (weight A), section (B) and text (D) tokens as `store.terms` makes them
            tsv tsvector NOT NULL,
            n_tokens integer NOT NULL
        );
        CREATE INDEX chunks_by_doc ON chunks (doc_id, ordinal);
        CREATE INDEX chunks_by_parent ON chunks (parent_id, ordinal);
        -- a collection's BM25 statistics from the index alone
        CREATE INDEX chunks_by_collection ON chunks (collection_id) INCLUDE (n_tokens);
        CREATE INDEX chunks_missing_vector ON chunks (id) WHERE NOT has_vector;
        CREATE INDEX chunks_keywords ON chunks USING gin (tsv);
        """,
    ),
    (
        # one partition per collection ("filter by partition, not by predicate"): a
        # collection's search walks its own HNSW graph, so its recall is the unfiltered
        # one. The column gets its dimension, and the index, from the first embedder that
        # stores vectors (`PostgresStore.put_vectors`); partitions are made with their
        # collection (`partition_sql`)
        "0004_vectors",
        """
        CREATE TABLE vectors (
            chunk_id bigint NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
            collection_id integer NOT NULL,
            embedding vector NOT NULL,
            PRIMARY KEY (collection_id, chunk_id)
        ) PARTITION BY LIST (collection_id);
        CREATE INDEX vectors_by_chunk ON vectors (chunk_id);
        """,
    ),
    (
        # a streamed document's version is staged and loading while its chunks are
        # appended in batches; a replacement finds the old version's equal chunks by hash
        "0005_streamed_documents",
        """
        ALTER TABLE documents ADD COLUMN loading boolean NOT NULL DEFAULT false;
        CREATE INDEX chunks_by_doc_hash ON chunks (doc_id, content_hash);
        """,
    ),
    # JSON `DocumentFields`; NULL: stored before documents were described
    ("0006_document_fields", "ALTER TABLE documents ADD COLUMN fields text"),
    # Never edit a released entry; add the next number (as the SQLite store's `MIGRATIONS`).
    # The folder a collection's sources are relative to (NULL: none recorded yet)
    ("0007_source_roots", "ALTER TABLE collections ADD COLUMN root text"),
    # SHA-1 of the whitespace-normalised embedded text (`text.embed_key`): chunks of equal
    # text share one vector; NULL: stored before, embedded as before
    (
        "0008_embed_hash",
        """
        ALTER TABLE chunks ADD COLUMN embed_hash text;
        CREATE INDEX chunks_by_embed_hash ON chunks (embed_hash);
        """,
    ),
    # the framing block each chunk is ("" none); NULL: stored before, labelled when the
    # store opens (`store.sql.labels`), found through the partial index
    (
        "0009_chunk_labels",
        """
        ALTER TABLE chunks ADD COLUMN label text;
        CREATE INDEX chunks_unlabelled ON chunks (id) WHERE label IS NULL;
        """,
    ),
    *GRAPH_MIGRATIONS,  # 0101: the graph's, named apart
)
# the store's migrations are named NNNN_…; the users' and memory's have their own prefixes
STORE_MIGRATION = re.compile(r"\d{4}_")
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(applied: Iterable[str]) -> int:
    """The store's version from the names of the migrations applied to its database: how
    many of `MIGRATIONS` ran. A store migration this release does not know means a newer
    release wrote the database: StoreError."""
    names = {name for name in applied if STORE_MIGRATION.match(name)}
    unknown = sorted(names - {name for name, _ in MIGRATIONS})
    if unknown:
        raise StoreError(
            f"this database has store migrations this citewise does not know"
            f" ({', '.join(unknown)}): a newer citewise wrote it; upgrade citewise to open it"
        )
    return len(names)


def partition_sql(collection_id: int) -> str:
    """The DDL that gives a new collection its vector partition."""
    return (
        f"CREATE TABLE IF NOT EXISTS vectors_{int(collection_id)} PARTITION OF vectors"
        f" FOR VALUES IN ({int(collection_id)})"
    )
