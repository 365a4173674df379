"""A reranker's order with one passage of each document first, for the questions whose answer
spans documents ("Which of my documents discuss X?", "What depends on X?", "Who are the
parties to …?"): the answer's sources then name every document the candidates hold before a
second passage of the best one (`retrieve.ordering.documents_first`). On "Who are the
parties to …?" a document's passage the graph found (the one its party_to relation was read
from: the preamble naming the parties) is that document's first."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from citewise.graph.agreements import SOURCE_NAME, parties_subject
from citewise.retrieve.ordering import documents_first
from citewise.retrieve.rerank.base import Reranker
from citewise.types import Hit
from citewise.types.vectors import Vectors


class DocumentsFirst:
    """`Reranker` wrapping `inner`: on the questions `route` takes, at most `per_document`
    passages of a document before the other documents' (the rest keep their order after
    them); every other question gets `inner`'s order unchanged."""

    def __init__(
        self, inner: Reranker, route: Callable[[str], bool], per_document: int = 1
    ) -> None:
        self.inner = inner
        self.route = route
        self.per_document = per_document
        self.name = inner.name
        self.select_threshold = inner.select_threshold

    @property
    def last_fallback(self) -> str | None:
        return self.inner.last_fallback

    def rerank(
        self, query: str, hits: Sequence[Hit], k: int, *, query_vector: Vectors | None = None
    ) -> list[Hit]:
        ranked = self.inner.rerank(query, hits, k, query_vector=query_vector)
        if not self.route(query):
            return ranked
        if parties_subject(query) is not None:
            ranked = graph_first(ranked)
        return documents_first(ranked, self.per_document)


def graph_first(hits: Sequence[Hit]) -> list[Hit]:
    """The hits the graph found first, in the graph's order, then the others in theirs
    (pure; ranks left as they were)."""
    found = sorted(
        (h for h in hits if SOURCE_NAME in h.retriever_ranks),
        key=lambda h: h.retriever_ranks[SOURCE_NAME],
    )
    return [*found, *(h for h in hits if SOURCE_NAME not in h.retriever_ranks)]
