"""The store contract kit, cut by capability: a backend runs the suites of what it supports.

The `Store` protocol's suites are `DocumentStoreTests`, `KeywordSearchTests` and
`VectorSearchTests`, bundled as `StoreContractTests`; each optional capability has its own:
`StreamingStoreContractTests` (`testing.streaming_contract`, for `StreamingStore`),
`HeadingLookupsContractTests` (`testing.lookups_contract`, for `store.lookups.HeadingLookups`) and
`GraphHolderContractTests` (`testing.graph_contract`, for `GraphHolder`) and
`HybridSearchContractTests` (`testing.hybrid_contract`, for `HybridSearch`). A backend's test
module names the suites it declares and provides a `store` fixture (an empty store, closed
after the test), as haystack's `testing/document_store.py` does:

    class TestMyStore(StoreContractTests, StreamingStoreContractTests):
        @pytest.fixture
        def store(self, tmp_path: Path) -> Iterator[Store]:
            made = MyStore(tmp_path / "store")
            yield made
            made.close()

`testing.store_documents` makes the small documents.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from citewise.errors import StoreError
from citewise.store.base import GraphHolder, HybridSearch, Store, StreamingStore
from citewise.store.lookups import HeadingLookups
from citewise.testing.graph_contract import GraphHolderContractTests
from citewise.testing.hybrid_contract import HybridSearchContractTests
from citewise.testing.lookups_contract import HeadingLookupsContractTests
from citewise.testing.store_documents import (
    document_of,
    embed_all,
    keyword_sources,
    new_document,
    unit_vector,
)
from citewise.testing.streaming_contract import StreamingStoreContractTests
from citewise.types import ChunkRecord, DocumentFields, SearchFilter

__all__ = [
    "DocumentStoreTests",
    "KeywordSearchTests",
    "StoreContractTests",
    "StreamingStoreContractTests",
    "VectorSearchTests",
    "capability_suites",
    "document_of",
    "new_document",
]


class DocumentStoreTests:
    """Documents in and out (add, stage, finalize, describe, delete), chunk reads in reading
    order, filters and collections."""

    def test_new_document_is_keyword_searchable_before_vectors(self, store: Store) -> None:
        store.add_document(new_document("a.txt", "Rotate the logs every night with logrotate."))
        assert keyword_sources(store, "logrotate") == ["a.txt"]
        assert store.find_document("default", "a.txt").status == "indexing"  # type: ignore[union-attr]
        assert store.vector_search(unit_vector(1), SearchFilter(), 5) == []

    def test_finalize_marks_ready_and_vector_search_finds_it(self, store: Store) -> None:
        store.add_document(new_document("a.txt", "Alpha text."))
        embed_all(store)
        doc = store.find_document("default", "a.txt")
        assert doc is not None and doc.status == "ready"
        cid = store.keyword_search(["alpha"], SearchFilter(), 5)[0].chunk_id
        hits = store.vector_search(unit_vector(cid), SearchFilter(), 1)
        assert hits[0].chunk_id == cid and hits[0].score == pytest.approx(1.0, abs=1e-5)

    def test_delete_removes_chunks_from_keyword_and_vector_index(self, store: Store) -> None:
        doc_id = store.add_document(new_document("gone.txt", "Zebra migration patterns."))
        store.add_document(new_document("kept.txt", "Zebra crossings."))
        embed_all(store)
        store.delete_document(doc_id)
        assert keyword_sources(store, "zebra") == ["kept.txt"]
        vec_hits = store.vector_search(unit_vector(0), SearchFilter(), 10)
        sources = {r.source for r in store.get_chunks([h.chunk_id for h in vec_hits])}
        assert sources == {"kept.txt"}
        assert store.stats()["parents"] == 1

    def test_staged_replacement_is_invisible_until_finalized(self, store: Store) -> None:
        old = store.add_document(new_document("doc.txt", "Old wording about kangaroos."))
        embed_all(store)
        store.add_document(
            new_document("doc.txt", "New wording about wombats.", digest="h2"), replaces=old
        )
        assert keyword_sources(store, "wombats") == []
        assert keyword_sources(store, "kangaroos") == ["doc.txt"]
        embed_all(store, seed=100)
        assert keyword_sources(store, "wombats") == ["doc.txt"]
        assert keyword_sources(store, "kangaroos") == []
        docs = store.list_documents("default")
        assert [(d.source, d.content_hash, d.status) for d in docs] == [("doc.txt", "h2", "ready")]

    def test_document_fields_are_stored_with_the_document(self, store: Store) -> None:
        fields = DocumentFields(names=("acme",), years=(2018,), kinds=("annual", "10-k"))
        store.add_document(replace(new_document("a.txt", "Annual report."), fields=fields))
        assert [d.fields for d in store.list_documents("default")] == [fields]

    def test_describe_document_replaces_the_fields_of_a_version(self, store: Store) -> None:
        doc_id = store.add_document(new_document("a.txt", "Annual report."))
        fields = DocumentFields(names=("acme",), versions=("3.11",))
        store.describe_document(doc_id, fields)
        doc = store.find_document("default", "a.txt")
        assert doc is not None and doc.fields == fields

    def test_search_is_scoped_by_collection(self, store: Store) -> None:
        store.add_document(new_document("a.txt", "Shared term quokka.", collection="one"))
        store.add_document(new_document("b.txt", "Shared term quokka.", collection="two"))
        embed_all(store)
        assert keyword_sources(store, "quokka", collection="one") == ["a.txt"]
        assert keyword_sources(store, "quokka", collection="missing") == []
        vec = store.vector_search(unit_vector(0), SearchFilter(collection="two"), 10)
        assert {r.source for r in store.get_chunks([h.chunk_id for h in vec])} == {"b.txt"}

    def test_filters_by_category_tags_and_source(self, store: Store) -> None:
        store.add_document(
            new_document("x.md", "Filter target ocelot.", category="guides", tags=("ops",))
        )
        store.add_document(
            new_document("y.md", "Filter target ocelot.", category="api", tags=("dev",))
        )
        embed_all(store)
        assert keyword_sources(store, "ocelot", category="guides") == ["x.md"]
        assert keyword_sources(store, "ocelot", tags=("dev",)) == ["y.md"]
        assert keyword_sources(store, "ocelot", sources=("x.md",)) == ["x.md"]
        vec = store.vector_search(unit_vector(3), SearchFilter(category="api"), 10)
        assert {r.source for r in store.get_chunks([h.chunk_id for h in vec])} == {"y.md"}

    def test_get_chunks_returns_parent_text_and_keeps_order(self, store: Store) -> None:
        store.add_document(new_document("a.txt", "First passage. " * 5))
        store.add_document(new_document("b.txt", "Second passage. " * 5))
        ids = [c for c, _ in store.chunks_missing_vectors(10)]
        recs = store.get_chunks(list(reversed(ids)), with_parents=True)
        assert [r.chunk_id for r in recs] == list(reversed(ids))
        assert all(r.parent_text for r in recs)

    def test_document_chunks_come_in_reading_order_with_parent_text(self, store: Store) -> None:
        words = " ".join(f"word{i}" for i in range(900))
        doc_id = store.add_document(new_document("long.txt", words))
        chunks = store.document_chunks(doc_id)
        assert len(chunks) > 1
        first_numbers = [int(c.text.split()[0].removeprefix("word")) for c in chunks]
        assert first_numbers == sorted(first_numbers)
        assert all(c.text in c.parent_text for c in chunks)
        assert store.document_chunks(doc_id + 999) == []

    def test_document_texts_are_the_chunks_ids_texts_and_sections_in_reading_order(
        self, store: Store
    ) -> None:
        words = " ".join(f"word{i}" for i in range(900))
        doc_id = store.add_document(new_document("long.txt", words))
        chunks = store.document_chunks(doc_id)
        assert store.document_texts(doc_id) == [(c.chunk_id, c.text, c.section) for c in chunks]
        assert store.document_texts(doc_id + 999) == []
        first = [(c.chunk_id, c.text, c.section) for c in chunks[:2]]
        assert store.document_texts(doc_id, limit=2) == first

    def test_preceding_chunks_are_the_chunks_just_before_in_reading_order(
        self, store: Store
    ) -> None:
        chunks, other = _long_beside_another(store)
        first_other = store.document_chunks(other)[0].chunk_id
        ids = [c.chunk_id for c in chunks]
        before = store.preceding_chunks([*ids, first_other, 10_000_000])
        assert {c: r.chunk_id for c, r in before.items()} == dict(
            zip(ids[1:], ids[:-1], strict=True)
        )
        assert before[ids[1]].text == chunks[0].text
        assert store.preceding_chunks([]) == {}

    def test_following_chunks_are_the_chunks_just_after_in_reading_order(
        self, store: Store
    ) -> None:
        chunks, other = _long_beside_another(store)
        last_other = store.document_chunks(other)[-1].chunk_id
        ids = [c.chunk_id for c in chunks]
        after = store.following_chunks([*ids, last_other, 10_000_000])
        assert {c: r.chunk_id for c, r in after.items()} == dict(itertools.pairwise(ids))
        assert after[ids[0]].text == chunks[1].text
        assert store.following_chunks([]) == {}

    def test_chunks_before_parents_end_just_before_each_parent(self, store: Store) -> None:
        words = " ".join(f"word{i}" for i in range(3000))
        doc_id = store.add_document(new_document("long.txt", words))
        chunks = store.document_chunks(doc_id)
        firsts: dict[int, int] = {}
        for i, c in enumerate(chunks):
            firsts.setdefault(c.parent_id, i)
        assert len(firsts) > 1
        before = store.chunks_before_parents([*firsts, 10_000_000])
        expected = {p: chunks[i - 1].chunk_id for p, i in firsts.items() if i > 0}
        assert {p: r.chunk_id for p, r in before.items()} == expected
        assert store.chunks_before_parents([]) == {}

    def test_chunks_after_parents_start_just_after_each_parent(self, store: Store) -> None:
        words = " ".join(f"word{i}" for i in range(3000))
        doc_id = store.add_document(new_document("long.txt", words))
        chunks = store.document_chunks(doc_id)
        lasts = {c.parent_id: i for i, c in enumerate(chunks)}
        assert len(lasts) > 1
        after = store.chunks_after_parents([*lasts, 10_000_000])
        expected = {p: chunks[i + 1].chunk_id for p, i in lasts.items() if i + 1 < len(chunks)}
        assert {p: r.chunk_id for p, r in after.items()} == expected
        assert store.chunks_after_parents([]) == {}

    def test_has_documents_per_collection(self, store: Store) -> None:
        assert not store.has_documents("default")
        store.add_document(new_document("a.txt", "Alpha text.", collection="docs"))
        assert store.has_documents("docs") and not store.has_documents("default")

    def test_a_failed_insert_leaves_nothing_behind(self, store: Store) -> None:
        broken = new_document("broken.txt", "Half stored text.")
        orphan = replace(broken.chunks.children[0], parent_ordinal=99)
        broken = replace(broken, chunks=replace(broken.chunks, children=(orphan,)))
        with pytest.raises(LookupError):  # the child's parent is not in the document
            store.add_document(broken)
        assert store.stats() == {"documents": 0, "parents": 0, "chunks": 0, "vectors": 0}
        assert keyword_sources(store, "half") == []


class KeywordSearchTests:
    """`keyword_search`: ranked by rarity, over plain terms (never query syntax)."""

    def test_keyword_search_ranks_rare_terms_above_common_ones(self, store: Store) -> None:
        for i in range(6):
            store.add_document(new_document(f"common{i}.txt", f"Common words about logging {i}."))
        store.add_document(new_document("rare.txt", "Logging with the rare platypus handler."))
        cands = store.keyword_search(["logging", "platypus"], SearchFilter(), 10)
        sources = [r.source for r in store.get_chunks([c.chunk_id for c in cands])]
        assert sources[0] == "rare.txt" and len(sources) == 7
        assert [c.rank for c in cands] == list(range(1, 8))
        assert all(a.score >= b.score for a, b in itertools.pairwise(cands))

    def test_keyword_search_takes_plain_terms_not_query_syntax(self, store: Store) -> None:
        store.add_document(new_document("a.txt", "Near the café, logs OR traces."))
        assert keyword_sources(store, 'NEAR("cafe" OR') == ["a.txt"]
        found = store.keyword_search(['"café"', "*", "AND"], SearchFilter(), 5)
        assert len(found) == 1
        assert store.keyword_search([], SearchFilter(), 5) == []


class VectorSearchTests:
    """Vectors: stored per embedder, read back, searched under a filter, kept across a
    replacement."""

    def test_vectors_from_another_embedder_are_refused(self, store: Store) -> None:
        store.add_document(new_document("a.txt", "Some text."))
        embed_all(store)
        store.add_document(new_document("b.txt", "More text."))
        ((cid, _),) = store.chunks_missing_vectors(10)
        with pytest.raises(StoreError, match="test-embedder"):
            store.put_vectors([cid], unit_vector(1)[None, :], "other-embedder")

    def test_get_vectors_returns_stored_vectors_by_chunk_id(self, store: Store) -> None:
        store.add_document(new_document("a.txt", "Alpha text."))
        cid = store.keyword_search(["alpha"], SearchFilter(), 1)[0].chunk_id
        assert store.get_vectors([cid]) == {}
        embed_all(store)
        got = store.get_vectors([cid, cid + 999])
        assert list(got) == [cid] and np.allclose(got[cid], unit_vector(cid))

    def test_vector_filter_applies_before_ranking_so_recall_is_kept(self, store: Store) -> None:
        for i in range(30):
            store.add_document(new_document(f"other{i}.txt", f"Other text {i}.", collection="big"))
        for i in range(3):
            store.add_document(new_document(f"mine{i}.txt", f"My text {i}.", collection="small"))
        embed_all(store)
        found = store.vector_search(unit_vector(5), SearchFilter(collection="small"), 3)
        assert sorted(r.source for r in store.get_chunks([c.chunk_id for c in found])) == [
            "mine0.txt", "mine1.txt", "mine2.txt"
        ]  # fmt: skip
        assert [c.rank for c in found] == [1, 2, 3]
        assert all(a.score >= b.score for a, b in itertools.pairwise(found))

    def test_missing_vectors_of_one_document(self, store: Store) -> None:
        first = store.add_document(new_document("a.txt", "Alpha text."))
        second = store.add_document(new_document("b.txt", "Beta text."))
        assert store.count_missing_vectors() == 2
        (only,) = store.chunks_missing_vectors(10, doc_id=second)
        assert store.get_chunks([only[0]])[0].doc_id == second and only[1]
        store.put_vectors([only[0]], unit_vector(1)[None, :], "test-embedder")
        assert store.finalize() == [second]
        assert store.count_missing_vectors() == 1
        assert [d for d, _ in store.chunks_missing_vectors(10)] == [
            c.chunk_id for c in store.document_chunks(first)
        ]

    def test_replacement_keeps_vectors_of_unchanged_chunks(self, store: Store) -> None:
        old = store.add_document(new_document("doc.txt", "Unchanged sentence about owls."))
        embed_all(store)
        (kept,) = store.document_chunks(old)
        store.add_document(
            new_document("doc.txt", "Unchanged sentence about owls.", digest="h2"), replaces=old
        )
        assert store.chunks_missing_vectors(10) == []
        assert store.finalize() != []
        (doc,) = store.list_documents("default")
        (new,) = store.document_chunks(doc.doc_id)
        assert doc.content_hash == "h2" and new.chunk_id != kept.chunk_id
        assert np.allclose(
            store.get_vectors([new.chunk_id])[new.chunk_id], unit_vector(kept.chunk_id)
        )

    def test_equal_embedded_texts_share_one_vector_across_collections(self, store: Store) -> None:
        # the embedded text starts with the title and section: one source in two collections
        store.add_document(new_document("a.txt", "Notices go to the address   above."))
        embed_all(store)
        store.add_document(
            new_document("a.txt", "Notices go to the\naddress above.", collection="other")
        )
        store.add_document(new_document("a.txt", "Notices go elsewhere.", collection="third"))
        (first,) = store.document_chunks(store.find_document("default", "a.txt").doc_id)  # type: ignore[union-attr]
        missing = dict(store.chunks_missing_vectors(10))
        shared = store.share_vectors(list(missing))
        assert len(missing) == 2 and len(shared) == 1
        assert "elsewhere" not in missing[shared[0]]
        assert np.allclose(store.get_vectors(shared)[shared[0]], unit_vector(first.chunk_id))
        assert [cid for cid, _ in store.chunks_missing_vectors(10)] == [
            cid for cid in missing if cid not in shared
        ]
        assert store.share_vectors(shared) == []  # a chunk with a vector keeps it


class StoreContractTests(DocumentStoreTests, KeywordSearchTests, VectorSearchTests):
    """The `Store` protocol's whole contract (what every backend supports); optional
    capabilities add their own suites beside it."""

    def test_the_backend_runs_the_suite_of_each_capability_it_has(self, store: Store) -> None:
        assert [s.__name__ for s in capability_suites(store) if not isinstance(self, s)] == []


def capability_suites(store: object) -> list[type]:
    """The suites of the optional capabilities `store` implements (its protocol methods are
    there): a backend that offers one is tested on it."""
    offered = (
        (StreamingStore, StreamingStoreContractTests),
        (HeadingLookups, HeadingLookupsContractTests),
        (GraphHolder, GraphHolderContractTests),
        (HybridSearch, HybridSearchContractTests),
    )
    return [suite for protocol, suite in offered if isinstance(store, protocol)]


def _long_beside_another(store: Store) -> tuple[list[ChunkRecord], int]:
    """A document of several chunks and the id of a short one stored after it."""
    words = " ".join(f"word{i}" for i in range(900))
    doc_id = store.add_document(new_document("long.txt", words))
    other = store.add_document(new_document("other.txt", "Another document. " * 5))
    return store.document_chunks(doc_id), other
