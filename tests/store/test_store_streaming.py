"""Contract tests for streamed documents (`StreamingStore`), run on every backend: a
version taken in batches is invisible to every search until complete, then behaves like a
document added whole (replacement, vector reuse, finalize)."""

from dataclasses import replace

import numpy as np

from citewise.retrieve.query import query_terms
from citewise.store.base import Store, StreamingStore
from citewise.types import Block, ChunkedDocument, NewDocument, SearchFilter
from store.documents import document_of

DIM = 8


def _vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def _embed_all(store: Store) -> None:
    ids = [cid for cid, _ in store.chunks_missing_vectors(1000)]
    if ids:
        store.put_vectors(ids, np.stack([_vec(cid) for cid in ids]), "test-embedder")


def _keyword(store: Store, q: str) -> list[str]:
    cands = store.keyword_search(query_terms(q), SearchFilter(), 10)
    return [r.source for r in store.get_chunks([c.chunk_id for c in cands])]


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


def test_a_streamed_version_is_invisible_until_complete(store: Store) -> None:
    assert isinstance(store, StreamingStore)
    doc = _paragraphs(["aardvark", "badger", "cheetah", "dingo", "emu"])
    assert len(doc.chunks.parents) == 5
    doc_id = _stream(store, doc)
    _embed_all(store)  # the embedder may run while the file is still read
    assert store.finalize() == []
    assert _keyword(store, "aardvark emu") == []
    assert store.vector_search(_vec(1), SearchFilter(), 5) == []
    assert store.list_documents("default") == []
    assert store.find_staged("default", "big.log") is None
    assert store.complete_document(doc_id)
    assert sorted(_keyword(store, "aardvark emu")) == ["big.log", "big.log"]
    assert store.finalize() == [doc_id]
    (info,) = store.list_documents("default")
    assert (info.status, info.chunk_count) == ("ready", len(doc.chunks.children))
    chunks = store.document_chunks(doc_id)
    assert [c.text for c in chunks] == [c.text for c in doc.chunks.children]
    assert chunks[0].parent_text == doc.chunks.parents[0].text


def test_a_streamed_replacement_swaps_in_at_finalize_and_reuses_vectors(store: Store) -> None:
    assert isinstance(store, StreamingStore)
    old = _stream(store, _paragraphs(["aardvark", "badger", "cheetah"]))
    assert store.complete_document(old)
    _embed_all(store)
    store.finalize()
    new = _stream(store, _paragraphs(["aardvark", "badger", "zebra"]), replaces=old)
    assert _keyword(store, "zebra") == [] and _keyword(store, "cheetah") == ["big.log"]
    assert store.complete_document(new)
    assert _keyword(store, "zebra") == []  # staged until its vectors are in
    missing = store.chunks_missing_vectors(100, doc_id=new)
    assert len(missing) == 1 and "zebra" in missing[0][1]  # the rest took the old vectors
    _embed_all(store)
    assert store.finalize() == [new]
    assert _keyword(store, "zebra") == ["big.log"] and _keyword(store, "cheetah") == []
    assert [d.doc_id for d in store.list_documents("default")] == [new]


def test_another_ingest_of_the_source_supersedes_a_loading_version(store: Store) -> None:
    assert isinstance(store, StreamingStore)
    doc = _paragraphs(["aardvark", "badger"])
    loading = _stream(store, doc)
    other = store.add_document(_paragraphs(["cheetah"]))  # another process, another version
    assert not store.append_chunks(loading, _batches(doc, 1)[0])
    assert not store.complete_document(loading)
    assert [d.doc_id for d in store.list_documents("default")] == [other]
    assert store.stats()["chunks"] == len(_paragraphs(["cheetah"]).chunks.children)


def test_a_leftover_loading_version_gives_way_to_the_next_run(store: Store) -> None:
    assert isinstance(store, StreamingStore)
    doc = _paragraphs(["aardvark", "badger"])
    _stream(store, doc)  # a run killed before completing
    again = _stream(store, doc)
    assert store.complete_document(again)
    assert store.stats()["documents"] == 1
    assert store.stats()["chunks"] == len(doc.chunks.children)
