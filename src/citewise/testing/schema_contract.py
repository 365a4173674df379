"""The schema and source-identity contract: every store backend is at the latest schema
version once open, keeps what it holds when opened again, records the folder a collection's
sources are relative to (the first one stays), and keeps two sources of one file name as
two documents. A subclass provides `store` (an empty store) and `reopen` (a new store
object on the same database, closed by the caller)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from citewise.store.base import Store
from citewise.testing.store_documents import (
    embed_all,
    keyword_sources,
    new_document,
    unit_vector,
)
from citewise.types import SearchFilter

Reopen = Callable[[], Store]


class SchemaContractTests:
    def test_an_open_store_is_at_the_latest_schema_version(self, store: Store) -> None:
        version, latest = store.schema_version()
        assert version == latest >= 3

    def test_opening_again_migrates_nothing_and_keeps_documents(
        self, store: Store, reopen: Reopen
    ) -> None:
        store.add_document(new_document("kept.txt", "Wombats dig burrows at night."))
        embed_all(store)
        again = reopen()
        try:
            assert again.schema_version() == store.schema_version()
            assert keyword_sources(again, "wombats") == ["kept.txt"]
            assert again.find_document("default", "kept.txt").status == "ready"  # type: ignore[union-attr]
        finally:
            again.close()

    def test_nothing_waits_for_a_reindex_in_a_new_store(self, store: Store) -> None:
        assert store.reindex_reason() is None

    def test_forgotten_vectors_are_made_anew_by_another_embedder(self, store: Store) -> None:
        store.add_document(new_document("a.txt", "Wombats dig burrows at night."))
        embed_all(store)
        assert store.vectors_embedder() == "test-embedder"
        store.forget_vectors()
        assert store.vectors_embedder() is None
        assert store.find_document("default", "a.txt").status == "indexing"  # type: ignore[union-attr]
        assert keyword_sources(store, "wombats") == ["a.txt"]  # found by keyword meanwhile
        assert store.vector_search(unit_vector(0), SearchFilter(), 5) == []
        missing = store.chunks_missing_vectors(100)
        assert len(missing) == store.count_missing_vectors() > 0
        other = np.eye(4, dtype=np.float32)[: len(missing)]  # another dimension, too
        store.put_vectors([cid for cid, _ in missing], other, "other-embedder")
        store.finalize()
        assert store.vectors_embedder() == "other-embedder"
        assert store.find_document("default", "a.txt").status == "ready"  # type: ignore[union-attr]
        hits = store.vector_search(other[0], SearchFilter(), 1)
        assert [h.chunk_id for h in hits] == [missing[0][0]]


class SourceIdentityContractTests:
    def test_the_first_root_recorded_for_a_collection_stays(
        self, store: Store, reopen: Reopen
    ) -> None:
        assert store.collection_root("default") is None
        assert store.record_root("default", "/data/team-a") == "/data/team-a"
        assert store.record_root("default", "/data/team-b") == "/data/team-a"
        assert store.collection_root("other") is None
        again = reopen()
        try:
            assert again.collection_root("default") == "/data/team-a"
        finally:
            again.close()

    def test_recording_a_root_keeps_the_collections_documents(self, store: Store) -> None:
        store.add_document(new_document("notes.md", "Team A meets on Mondays."))
        store.record_root("default", "/data/team-a")
        assert [d.source for d in store.list_documents("default")] == ["notes.md"]

    def test_one_file_name_under_two_folders_is_two_documents(self, store: Store) -> None:
        store.add_document(new_document("notes.md", "Team A meets on Mondays."))
        store.add_document(
            new_document("/data/team-b/notes.md", "Team B meets on Fridays.", digest="h2")
        )
        embed_all(store)
        sources = [d.source for d in store.list_documents("default")]
        assert sources == ["/data/team-b/notes.md", "notes.md"]
        assert keyword_sources(store, "mondays") == ["notes.md"]
        assert keyword_sources(store, "fridays") == ["/data/team-b/notes.md"]
