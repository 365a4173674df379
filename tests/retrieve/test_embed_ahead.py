"""The query is embedded on a helper thread while keyword search runs: the two overlap, and
the hits are the same as when the caller hands the vector in."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from citewise.embed.hashing import HashingEmbedder
from citewise.retrieve.retriever import HybridRetriever, RetrievalOptions
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import Candidate, SearchFilter
from citewise.types.vectors import Vectors
from store.documents import new_document


class KeywordSignals(SQLiteStore):
    """Says when a keyword search has started; finishes one only once the query's embedding
    has started too (so the two run at the same time, or the wait times out)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.keyword_started = threading.Event()
        self.embed_started = threading.Event()
        self.saw_embedding: list[bool] = []

    def keyword_search(self, terms: Sequence[str], flt: SearchFilter, k: int) -> list[Candidate]:
        self.keyword_started.set()
        self.saw_embedding.append(self.embed_started.wait(10))
        return super().keyword_search(terms, flt, k)


class WaitsForKeyword(HashingEmbedder):
    """Embeds a query only once keyword search has started (so it cannot run before it)."""

    def __init__(self, store: KeywordSignals) -> None:
        super().__init__()
        self.store = store
        self.overlapped: list[bool] = []
        self.threads: list[str] = []

    def embed_query(self, text: str) -> Vectors:
        self.threads.append(threading.current_thread().name)
        self.store.embed_started.set()
        self.overlapped.append(self.store.keyword_started.wait(10))
        return super().embed_query(text)


def _store(tmp_path: Path) -> KeywordSignals:
    store = KeywordSignals(tmp_path / "s.db")
    for n, (name, text) in enumerate(
        (
            ("logs.txt", "Rotate the logs every night with logrotate."),
            ("tea.txt", "Brew green tea for two minutes, then rotate the cup."),
        )
    ):
        store.add_document(new_document(name, text, digest=f"h{n}"))
    return store


def test_the_query_is_embedded_while_keyword_search_runs(tmp_path: Path) -> None:
    store = _store(tmp_path)
    embedder = WaitsForKeyword(store)
    retriever = HybridRetriever(store, lambda: embedder, RetrievalOptions(store_fusion=False))
    result = retriever.search("rotate the logs", flt=SearchFilter())
    assert embedder.overlapped == [True] and store.saw_embedding == [True]
    assert embedder.threads[0] != threading.current_thread().name
    assert "embed_query" in result.timings_ms
    store.embed_started.set()  # the next search embeds nothing
    handed = retriever.search(
        "rotate the logs",
        flt=SearchFilter(),
        query_vector=HashingEmbedder().embed_query("rotate the logs"),
    )
    assert [h.chunk_id for h in handed.hits] == [h.chunk_id for h in result.hits]
    assert embedder.overlapped == [True]  # a handed-in vector is not embedded again
