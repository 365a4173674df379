"""Contract tests for chunks labelled at ingest (`Child.label`) and chunks kept without a
vector (`Child.embed` False): a store keeps the label, never asks for their vectors, still
finds them by keyword (alone and in hybrid search), makes their document ready, and keeps
them without a vector when every vector is dropped for another embedder."""

from __future__ import annotations

import numpy as np

from citewise.ingest.chunking import ChunkingOptions, chunk_document
from citewise.retrieve.query import query_terms
from citewise.store.base import HybridQuery, HybridSearch, Store
from citewise.testing.store_documents import embed_all, unit_vector
from citewise.types import Block, NewDocument, ParsedDocument, SearchFilter

CLAUSE = (
    "Distributor shall demonstrate the Products at the following exhibitions each year: "
    "the spring trade fair and the autumn dealer show, at its own cost."
)
SIGNATURE = (
    "IN WITNESS WHEREOF, the parties have executed this Agreement as of the Effective Date.\n"
    "By: /s/ Jane Roe\nName: Jane Roe\nTitle: Chief Executive Officer\n"
    "By: /s/ John Doe\nName: John Doe\nTitle: President"
)
CONTENTS = "\n".join(
    f"{n}. {name} .......... {page}"
    for n, name, page in [(1, "Definitions", 1), (2, "Appointment", 3), (3, "Exhibitions", 4),
                          (4, "Term", 6), (5, "Notices", 8)]
)  # fmt: skip


def framed_agreement(unembedded: frozenset[str]) -> NewDocument:
    """An agreement with a clause, a table of contents and a signature block, chunked as
    ingest chunks it with `unembedded` kinds left without vectors."""
    blocks = (
        Block(CONTENTS, ("Table of Contents",)),
        Block(CLAUSE, ("Exhibitions",)),
        Block(SIGNATURE, ("Signatures",)),
    )
    parsed = ParsedDocument(title="agreement.txt", blocks=blocks, format="text")
    options = ChunkingOptions(unembedded=unembedded)
    chunks = chunk_document(parsed, lambda t: len(t.split()), options)
    return NewDocument(
        collection="default", source="agreement.txt", title="agreement.txt", format="text",
        category="", tags=(), content_hash="h-framed", mtime=0.0, size=1, page_count=None,
        chunks=chunks,
    )  # fmt: skip


class ChunkLabelContractTests:
    """Labels from ingest, and chunks that are not embedded."""

    def _labels(self, store: Store, doc_id: int) -> dict[str, int]:
        return {r.label or "": r.chunk_id for r in store.document_chunks(doc_id)}

    def test_a_chunk_is_stored_with_the_label_ingest_gave_it(self, store: Store) -> None:
        doc_id = store.add_document(framed_agreement(frozenset()))
        labels = self._labels(store, doc_id)
        assert set(labels) == {"contents", "", "signature"}
        [record] = store.get_chunks([labels["signature"]])
        assert record.label == "signature"

    def test_an_unembedded_chunk_gets_no_vector_and_its_document_is_ready(
        self, store: Store
    ) -> None:
        doc_id = store.add_document(framed_agreement(frozenset({"signature", "contents"})))
        labels = self._labels(store, doc_id)
        assert [cid for cid, _ in store.chunks_missing_vectors(10)] == [labels[""]]
        embed_all(store)
        assert [d.doc_id for d in store.list_documents("default")] == [doc_id]
        assert store.get_vectors([labels["signature"], labels["contents"]]) == {}
        nearest = store.vector_search(unit_vector(0), SearchFilter(), 10)
        assert [c.chunk_id for c in nearest] == [labels[""]]

    def test_an_unembedded_chunk_is_found_by_keyword_alone_and_in_hybrid_search(
        self, store: Store
    ) -> None:
        doc_id = store.add_document(framed_agreement(frozenset({"signature", "contents"})))
        embed_all(store)
        signature = self._labels(store, doc_id)["signature"]
        terms = query_terms("who executed it, in witness whereof")
        assert store.keyword_search(terms, SearchFilter(), 5)[0].chunk_id == signature
        if isinstance(store, HybridSearch):
            query = HybridQuery(terms=terms, vector=unit_vector(3), keyword_k=5, vector_k=5)
            ranking = store.hybrid_search(query, SearchFilter())
            fused = {c.chunk_id: c for c in ranking.fused}
            assert fused[signature].keyword_rank == 1 and fused[signature].vector_rank is None

    def test_dropping_every_vector_leaves_unembedded_chunks_without_one(self, store: Store) -> None:
        doc_id = store.add_document(framed_agreement(frozenset({"signature", "contents"})))
        embed_all(store)
        store.forget_vectors()
        missing = [cid for cid, _ in store.chunks_missing_vectors(10)]
        assert missing == [self._labels(store, doc_id)[""]]
        store.put_vectors(missing, np.stack([unit_vector(1)]), "another-embedder")
        assert store.finalize() == [doc_id]
