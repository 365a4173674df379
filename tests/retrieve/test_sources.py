"""Retrieval is a list of candidate sources fused by RRF: any source can join, a genre source
needs a store with genre lookups, and a mode runs only the sources that serve it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from citewise.embed.hashing import HashingEmbedder
from citewise.retrieve.retriever import HybridRetriever, RetrievalOptions, default_sources
from citewise.retrieve.sources.base import SourceQuery
from citewise.retrieve.sources.keyword import KeywordSource
from citewise.retrieve.sources.option_entries import OptionEntrySource
from citewise.store.base import Store
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import Block, Candidate, SearchFilter, SearchMode
from store.documents import document_of, new_document


@dataclass(frozen=True)
class FixedSource:
    """Ranks the chunks it was given, in that order."""

    chunk_ids: tuple[int, ...]
    name: str = "fixed"
    weight: float = 1.0

    def serves(self, mode: SearchMode) -> bool:
        return True

    def candidates(
        self, query: SourceQuery, found: Mapping[str, Sequence[Candidate]]
    ) -> list[Candidate]:
        return [Candidate(c, i + 1, 1.0) for i, c in enumerate(self.chunk_ids)]


class CoreOnly:
    """A store offering the core protocol only (no genre lookups)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        if name in ("heading_search", "documents_titled"):
            raise AttributeError(name)
        return getattr(self._store, name)


def _store(tmp_path: Path) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "s.db")
    store.add_document(new_document("logs.txt", "Rotate the logs every night with logrotate."))
    store.add_document(new_document("tea.txt", "Brew green tea for two minutes."))
    return store


def test_an_added_source_is_fused_with_keyword_search(tmp_path: Path) -> None:
    store = _store(tmp_path)
    tea = store.keyword_search(["tea"], SearchFilter(), 1)[0].chunk_id
    retriever = HybridRetriever(
        store, HashingEmbedder, sources=[KeywordSource(store), FixedSource((tea,))]
    )
    result = retriever.search("logrotate", k=5, mode="keyword", flt=SearchFilter())
    assert [h.source for h in result.hits] == ["logs.txt", "tea.txt"]
    assert {"keyword", "fixed", "fuse", "total"} <= set(result.timings_ms)
    store.close()


def test_a_mode_runs_only_the_sources_serving_it(tmp_path: Path) -> None:
    store = _store(tmp_path)
    sources = default_sources(store, HashingEmbedder, RetrievalOptions())
    assert [s.name for s in sources] == ["keyword", "vector", "entries"]
    result = HybridRetriever(store, HashingEmbedder, sources=sources).search(
        "logrotate", k=5, mode="keyword", flt=SearchFilter()
    )
    assert "vector" not in result.timings_ms and "embed_query" not in result.timings_ms
    no_entries = default_sources(store, HashingEmbedder, RetrievalOptions(entries=False))
    assert [s.name for s in no_entries] == ["keyword", "vector"]
    store.close()


def test_the_entry_source_needs_genre_lookups(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    store.add_document(
        document_of("cli.txt", [Block("Run a module as a script.", ("Options", "-m <module>"))])
    )
    query = SourceQuery("What does -m do?", 5, "hybrid", SearchFilter())
    assert len(OptionEntrySource(store).candidates(query, {})) == 1
    assert OptionEntrySource(CoreOnly(store)).candidates(query, {}) == []  # type: ignore[arg-type]
    store.close()
