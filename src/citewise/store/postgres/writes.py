"""What the PostgreSQL store writes its own way (`PostgresWrites`, the `store.sql.WriteConn`
the shared writes run on): ids by RETURNING in one pipeline, tags as an array, the keyword
vector as a chunk column, a vector partition per new collection, and row and advisory locks,
as several processes write one database; deletes cascade."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.db.postgres import to_pyformat
from citewise.graph.postgres import PostgresGraphStore
from citewise.store.postgres.reads import PostgresReads
from citewise.store.postgres.schema import partition_sql
from citewise.store.postgres.tsvector import tsvector_literal
from citewise.types import Child


class PostgresWrites(PostgresReads):
    """One connection inside the store's transaction."""

    chunk_columns = ", tsv, n_tokens"
    chunk_marks = ",?::tsvector,?"

    def insert_ids(self, sql: str, rows: Sequence[Sequence[object]]) -> list[int]:
        if not rows:
            return []
        ids: list[int] = []
        with self._conn.cursor() as cur:
            cur.executemany(to_pyformat(sql + " RETURNING id"), rows, returning=True)
            while True:
                got = cur.fetchone()
                if got is not None:
                    ids.append(int(got[0]))
                if not cur.nextset():
                    break
        return ids

    def locked(self, sql: str, *, skip_locked: bool = False) -> str:
        return sql + (" FOR UPDATE SKIP LOCKED" if skip_locked else " FOR UPDATE")

    def forget_vectors(self) -> None:
        for sql in (
            "DROP INDEX IF EXISTS vectors_hnsw",
            "DELETE FROM vectors",
            "ALTER TABLE vectors ALTER COLUMN embedding TYPE vector",
            "DELETE FROM meta WHERE key IN ('embedder', 'dimension')",
        ):
            self.execute(sql)

    def lock_source(self, collection_id: int, source: str) -> None:
        self.execute("SELECT pg_advisory_xact_lock(?, hashtext(?))", (collection_id, source))

    def add_collection(self, name: str, created_at: float) -> None:
        created = self.execute(
            "INSERT INTO collections(name, created_at) VALUES (?, ?)"
            " ON CONFLICT (name) DO NOTHING RETURNING id",
            (name, created_at),
        ).fetchone()
        if created is not None:
            self.execute(partition_sql(int(created[0])))

    def tags(self, tags: Sequence[str]) -> object:
        return list(tags)

    def chunk_values(self, title: str, chunk: Child) -> tuple[object, ...]:
        return tsvector_literal(title, chunk.section, chunk.text)

    def index_chunks(self, chunk_ids: Sequence[int], title: str, chunks: Sequence[Child]) -> None:
        return None  # the keyword vector is a column of the chunk row

    def copy_vectors(self, doc_id: int, old_doc_id: int, first_chunk: int) -> None:
        self.execute(
            "INSERT INTO vectors(chunk_id, collection_id, embedding)"
            " SELECT DISTINCT ON (n.id) n.id, n.collection_id, v.embedding FROM chunks n"
            " JOIN chunks o ON o.doc_id = ? AND o.content_hash = n.content_hash"
            " AND o.embed_text = n.embed_text"
            " JOIN vectors v ON v.chunk_id = o.id"
            " WHERE n.doc_id = ? AND n.id >= ? AND NOT n.has_vector ORDER BY n.id",
            (old_doc_id, doc_id, first_chunk),
        )

    def copy_shared_vectors(self, chunk_ids: Sequence[int]) -> None:
        self.execute(
            "INSERT INTO vectors(chunk_id, collection_id, embedding)"
            " SELECT DISTINCT ON (n.id) n.id, n.collection_id, v.embedding FROM chunks n"
            " JOIN chunks o ON o.embed_hash = n.embed_hash"
            " JOIN vectors v ON v.chunk_id = o.id"
            " WHERE n.id = ANY(?) AND NOT n.has_vector ORDER BY n.id",
            ([int(c) for c in chunk_ids],),
        )

    def delete_version(self, doc_id: int) -> None:
        self.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    def graph(self) -> PostgresGraphStore:
        return PostgresGraphStore(self._conn)

    def changed(self) -> None:
        return None  # searches read the database itself: nothing is cached
