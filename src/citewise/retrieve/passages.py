"""The answer flow's one port to the documents: search and rerank a part of a question, the
passages around what was found (parents, the chunk before, the lead-in of a parent), the opening
passages of pages titled by a subject, stored vectors for the gate, the graph for related documents,
what a summary reads, and for the conversation the collection's documents. `StorePassages`
serves it from a `Store` and a retriever.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Protocol

from citewise.graph.store import GraphStore
from citewise.retrieve.collections import search_collections
from citewise.retrieve.named_documents import NamedDocuments
from citewise.retrieve.ordering import ranked as ranked_hits
from citewise.retrieve.ordering import set_aside, set_back
from citewise.retrieve.rerank.base import Reranker, RerankResult, rerank_result
from citewise.retrieve.retriever import HybridRetriever
from citewise.store.base import GraphHolder, Store
from citewise.store.lookups import documents_titled
from citewise.types import ChunkRecord, DocumentInfo, SearchFilter, SearchResult
from citewise.types.trace import Trace
from citewise.types.vectors import Vectors

CANDIDATES = 20  # fused candidates handed to the reranker


class PassageReader(Protocol):
    """What the answer flow reads from the documents, and nothing else."""

    def ranked(
        self,
        query: str,
        flt: SearchFilter,
        collections: Sequence[str],
        trace: Trace,
        *,
        embed: Callable[[str], Vectors],
        carried: Sequence[str] = (),
    ) -> RerankResult:
        """The reranked candidates for `query`, ranked by its ask (`HybridRetriever.ask`);
        `embed`: the question object's (each text embedded once); `carried`: the documents
        a follow-up inherits from the previous turn."""
        ...

    def named(self, question: str, flt: SearchFilter) -> NamedDocuments:
        """The documents the question's subject names, with their own terms for it."""
        ...

    def chunks(self, ids: Sequence[int]) -> list[ChunkRecord]:
        """The chunks with their parents' text."""
        ...

    def preceding(self, ids: Sequence[int]) -> Mapping[int, ChunkRecord]: ...

    def before_parents(self, parent_ids: Sequence[int]) -> Mapping[int, ChunkRecord]: ...

    def following(self, ids: Sequence[int]) -> Mapping[int, ChunkRecord]: ...

    def after_parents(self, parent_ids: Sequence[int]) -> Mapping[int, ChunkRecord]: ...

    def titled(self, collection: str, prefix: str) -> list[DocumentInfo]:
        """Documents whose title starts with `prefix` (pages about a subject)."""
        ...

    def vectors(self, ids: Sequence[int]) -> Mapping[int, Vectors]: ...

    def documents(self, collection: str) -> list[DocumentInfo]: ...

    def has_documents(self, collection: str) -> bool: ...

    def document_chunks(self, doc_id: int) -> list[ChunkRecord]: ...

    def search(self, query: str, k: int, flt: SearchFilter) -> SearchResult: ...

    def keyword_chunks(self, words: Sequence[str], flt: SearchFilter, k: int) -> list[ChunkRecord]:
        """The first `k` chunks by keyword rank (BM25) for `words`, no embedding: the intent
        router's look at the documents before it turns a message away."""
        ...

    @property
    def graph(self) -> GraphStore | None: ...


class StorePassages:
    """`PassageReader` over a store, the answer flow's retriever and reranker."""

    def __init__(self, store: Store, retriever: HybridRetriever, reranker: Reranker) -> None:
        self._store = store
        self._retriever = retriever
        self._reranker = reranker
        # related documents come from the knowledge graph when the store keeps one
        self._graph = store.graph_store() if isinstance(store, GraphHolder) else None

    @property
    def graph(self) -> GraphStore | None:
        return self._graph

    def ranked(
        self,
        query: str,
        flt: SearchFilter,
        collections: Sequence[str],
        trace: Trace,
        *,
        embed: Callable[[str], Vectors],
        carried: Sequence[str] = (),
    ) -> RerankResult:
        retriever = self._retriever
        vector = embed(query)
        with trace.span("retrieve"):
            ask = retriever.ask(query, flt)
            ask_vector = embed(ask) if ask != query else vector

            def one(f: SearchFilter) -> SearchResult:
                return retriever.search(
                    query, k=CANDIDATES, flt=f, query_vector=vector, carried=carried,
                    ask_vector=ask_vector,
                )  # fmt: skip

            if len(collections) > 1:
                found = search_collections(one, collections, flt, CANDIDATES)
            else:
                found = one(flt)
        for key, value in found.timings_ms.items():
            if key != "total":
                trace.add(f"search_{key}", value)
        with trace.span("rerank"):
            # the subject chose the documents; inside them the ask ranks the passages
            reranked = rerank_result(
                self._reranker, ask, found.hits, k=CANDIDATES, query_vector=ask_vector
            )
        if reranked.fallback:
            trace.note("rerank_fallback")
        by_score = all(a.score >= b.score for a, b in pairwise(reranked.hits))
        reranked = replace(reranked, by_score=by_score)
        factor = self._retriever.options.aside_factor
        if factor != 1.0:  # the reranker reads the names again: framing blocks stay aside
            # set back, not re-sorted: the reranker's order (one passage a document) stays
            hits = ranked_hits(set_back(reranked.hits, set_aside(query), factor))
            reranked = replace(reranked, hits=hits)
        return reranked

    def named(self, question: str, flt: SearchFilter) -> NamedDocuments:
        return self._retriever.named(question, flt)

    def chunks(self, ids: Sequence[int]) -> list[ChunkRecord]:
        return self._store.get_chunks(list(ids), with_parents=True)

    def preceding(self, ids: Sequence[int]) -> Mapping[int, ChunkRecord]:
        return self._store.preceding_chunks(list(ids))

    def before_parents(self, parent_ids: Sequence[int]) -> Mapping[int, ChunkRecord]:
        return self._store.chunks_before_parents(list(parent_ids))

    def following(self, ids: Sequence[int]) -> Mapping[int, ChunkRecord]:
        return self._store.following_chunks(list(ids))

    def after_parents(self, parent_ids: Sequence[int]) -> Mapping[int, ChunkRecord]:
        return self._store.chunks_after_parents(list(parent_ids))

    def titled(self, collection: str, prefix: str) -> list[DocumentInfo]:
        return documents_titled(self._store, collection, prefix)

    def vectors(self, ids: Sequence[int]) -> Mapping[int, Vectors]:
        return self._store.get_vectors(list(ids))

    def documents(self, collection: str) -> list[DocumentInfo]:
        return self._store.list_documents(collection)

    def has_documents(self, collection: str) -> bool:
        return self._store.has_documents(collection)

    def document_chunks(self, doc_id: int) -> list[ChunkRecord]:
        return self._store.document_chunks(doc_id)

    def search(self, query: str, k: int, flt: SearchFilter) -> SearchResult:
        return self._retriever.search(query, k=k, flt=flt)

    def keyword_chunks(self, words: Sequence[str], flt: SearchFilter, k: int) -> list[ChunkRecord]:
        found = self._store.keyword_search(words, flt, k)
        return self._store.get_chunks([c.chunk_id for c in found])
