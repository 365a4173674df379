"""The connections the store's shared SQL runs on: statements in `?` placeholders, in SQL
both databases speak, plus the few pieces each database writes its own way. `ReadConn` for
the reads (`store.sql.reads`), implemented in `store.sqlite.reads` and
`store.postgres.reads`; `WriteConn` for the writes (`store.sql.writes`, `store.sql.stream`)
inside the store's write transaction, in `store.sqlite.writes` and `store.postgres.writes`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from citewise.db.sql import SqlConn
from citewise.graph.sql import SQLGraphStore
from citewise.types import Child


class ReadConn(SqlConn, Protocol):
    # a title matching a LIKE pattern (escape character `\\`), with one placeholder
    title_like: str
    # a chunk's line boxes as the `ch` row holds them (NULL where they are not stored)
    boxes_column: str

    def any_of(self, column: str, ids: Sequence[int]) -> tuple[str, tuple[object, ...]]:
        """A condition that `column` is one of `ids`, and its parameters."""
        ...

    def tags_of(self, value: object) -> tuple[str, ...]:
        """A document's tags from its `tags` column."""
        ...


class WriteConn(ReadConn, Protocol):
    # the columns a chunk row has beyond the shared ones, and their placeholders
    chunk_columns: str
    chunk_marks: str

    def insert_ids(self, sql: str, rows: Sequence[Sequence[object]]) -> list[int]:
        """Runs the INSERT `sql` once per row; the new rows' ids, in order."""
        ...

    def locked(self, sql: str, *, skip_locked: bool = False) -> str:
        """The SELECT `sql` with its rows held to the end of the transaction (with
        `skip_locked`, rows another transaction holds are left out); unchanged where one
        writer already excludes every other."""
        ...

    def lock_source(self, collection_id: int, source: str) -> None:
        """Serialises the writers of one source to the end of the transaction."""
        ...

    def add_collection(self, name: str, created_at: float) -> None:
        """Adds the collection unless a concurrent writer just did."""
        ...

    def tags(self, tags: Sequence[str]) -> object:
        """A document's tags as its `tags` column holds them."""
        ...

    def chunk_values(self, title: str, chunk: Child) -> tuple[object, ...]:
        """The values of `chunk_columns` for one chunk of the document titled `title`."""
        ...

    def index_chunks(self, chunk_ids: Sequence[int], title: str, chunks: Sequence[Child]) -> None:
        """Adds the new chunks to the keyword index where it is not a column of theirs."""
        ...

    def copy_vectors(self, doc_id: int, old_doc_id: int, first_chunk: int) -> None:
        """Gives the chunks of `doc_id` from id `first_chunk` on that lack a vector the
        vector of an equal chunk (same hash and embedded text) of `old_doc_id`."""
        ...

    def copy_shared_vectors(self, chunk_ids: Sequence[int]) -> None:
        """Gives those of `chunk_ids` that lack a vector the vector of any chunk with the same
        `embed_hash` (equal embedded text after whitespace), in any document or collection."""
        ...

    def delete_version(self, doc_id: int) -> None:
        """Removes one document version with its parents, chunks, vectors and keyword rows."""
        ...

    def graph(self) -> SQLGraphStore:
        """The knowledge graph's tables, written on this connection."""
        ...

    def forget_vectors(self) -> None:
        """Deletes every vector and the embedder they were made by (and, where the
        database fixes one, their dimension): the next embedder to store vectors is free."""
        ...

    def changed(self) -> None:
        """Records that searches must see a change (a deletion, a promotion)."""
        ...
