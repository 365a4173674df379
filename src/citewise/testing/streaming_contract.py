"""The contract of `StreamingStore` backends: a document stored in batches is invisible until
complete, and a streamed replacement swaps in at finalize (subclass beside StoreContractTests)."""

from __future__ import annotations

from dataclasses import replace

from citewise.store.base import Store, StreamingStore
from citewise.testing.store_documents import (
    document_of,
    keyword_sources,
    put_missing_vectors,
    unit_vector,
)
from citewise.types import Block, ChunkedDocument, NewDocument, SearchFilter


def _paragraphs(words: list[str]) -> NewDocument:
    """One parent per paragraph (each longer than half a parent), one word per paragraph."""
    filler = "plain filler words about nothing in particular " * 25
    blocks = [Block(f"{word} {filler}") for word in words]
    return document_of("big.log", blocks, digest="-".join(words))


def _batches(doc: NewDocument, size: int) -> list[ChunkedDocument]:
    """Whole parents with their children, `size` parents per batch."""
    out = []
    parents = doc.chunks.parents
    for start in range(0, len(parents), size):
        group = parents[start : start + size]
        ordinals = {p.ordinal for p in group}
        kids = tuple(c for c in doc.chunks.children if c.parent_ordinal in ordinals)
        out.append(ChunkedDocument(group, kids))
    return out


def _stream(store: Store, doc: NewDocument, replaces: int | None = None) -> int:
    assert isinstance(store, StreamingStore)
    doc_id = store.begin_document(replace(doc, chunks=ChunkedDocument((), ())), replaces=replaces)
    assert doc_id is not None
    for batch in _batches(doc, 2):
        assert store.append_chunks(doc_id, batch)
    return doc_id


class StreamingStoreContractTests:
    """The `StreamingStore` capability's contract: a version taken in batches is invisible to
    every search until complete, then behaves like a document added whole (replacement,
    vector reuse, finalize). A subclass provides the same `store` fixture."""

    def test_a_streamed_version_is_invisible_until_complete(self, store: Store) -> None:
        assert isinstance(store, StreamingStore)
        doc = _paragraphs(["aardvark", "badger", "cheetah", "dingo", "emu"])
        assert len(doc.chunks.parents) == 5
        doc_id = _stream(store, doc)
        put_missing_vectors(store)  # the embedder may run while the file is still read
        assert store.finalize() == []
        assert keyword_sources(store, "aardvark emu") == []
        assert store.vector_search(unit_vector(1), SearchFilter(), 5) == []
        assert store.list_documents("default") == []
        assert store.find_staged("default", "big.log") is None
        assert store.complete_document(doc_id)
        assert sorted(keyword_sources(store, "aardvark emu")) == ["big.log", "big.log"]
        assert store.finalize() == [doc_id]
        (info,) = store.list_documents("default")
        assert (info.status, info.chunk_count) == ("ready", len(doc.chunks.children))
        chunks = store.document_chunks(doc_id)
        assert [c.text for c in chunks] == [c.text for c in doc.chunks.children]
        assert chunks[0].parent_text == doc.chunks.parents[0].text

    def test_a_streamed_replacement_swaps_in_at_finalize_and_reuses_vectors(
        self, store: Store
    ) -> None:
        assert isinstance(store, StreamingStore)
        old = _stream(store, _paragraphs(["aardvark", "badger", "cheetah"]))
        assert store.complete_document(old)
        put_missing_vectors(store)
        store.finalize()
        new = _stream(store, _paragraphs(["aardvark", "badger", "zebra"]), replaces=old)
        assert keyword_sources(store, "zebra") == [] and keyword_sources(store, "cheetah") == [
            "big.log"
        ]
        assert store.complete_document(new)
        assert keyword_sources(store, "zebra") == []  # staged until its vectors are in
        missing = store.chunks_missing_vectors(100, doc_id=new)
        assert len(missing) == 1 and "zebra" in missing[0][1]  # the rest took the old vectors
        put_missing_vectors(store)
        assert store.finalize() == [new]
        assert (
            keyword_sources(store, "zebra") == ["big.log"]
            and keyword_sources(store, "cheetah") == []
        )
        assert [d.doc_id for d in store.list_documents("default")] == [new]

    def test_another_ingest_of_the_source_supersedes_a_loading_version(self, store: Store) -> None:
        assert isinstance(store, StreamingStore)
        doc = _paragraphs(["aardvark", "badger"])
        loading = _stream(store, doc)
        other = store.add_document(_paragraphs(["cheetah"]))  # another process, another version
        assert not store.append_chunks(loading, _batches(doc, 1)[0])
        assert not store.complete_document(loading)
        assert [d.doc_id for d in store.list_documents("default")] == [other]
        assert store.stats()["chunks"] == len(_paragraphs(["cheetah"]).chunks.children)

    def test_a_leftover_loading_version_gives_way_to_the_next_run(self, store: Store) -> None:
        assert isinstance(store, StreamingStore)
        doc = _paragraphs(["aardvark", "badger"])
        _stream(store, doc)  # a run killed before completing
        again = _stream(store, doc)
        assert store.complete_document(again)
        assert store.stats()["documents"] == 1
        assert store.stats()["chunks"] == len(doc.chunks.children)
