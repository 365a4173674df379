"""Keyword search ranks from the full-text index first and checks the collection afterwards:
the hits are the same, in the same order, as the joined query's, whatever the collection's
share of the store, staged documents, filters or tied scores."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.store.sqlite import search
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import Candidate, SearchFilter
from store.documents import new_document

TERMS = ["zebra", "quokka"]


def _store(tmp_path: Path) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "s.db")
    texts = [f"plain words about item {i} and nothing else" for i in range(40)]
    texts += [f"the zebra {i} " + "zebra " * i + "ends here" for i in range(12)]
    texts += [f"one quokka {i} met a zebra" for i in range(4)]
    texts += ["a zebra and a quokka, a copy"] * 6  # tied scores
    for i, text in enumerate(texts):
        store.add_document(new_document(f"d{i}.txt", text, digest=f"h{i}", category=f"c{i % 3}"))
    for i in range(5):
        text = f"a note {i} that mentions a zebra once among many other words here"
        doc = new_document(f"o{i}.txt", text, collection="other", digest=f"o{i}")
        store.add_document(doc)
    return store


def _joined(store: SQLiteStore, flt: SearchFilter, k: int) -> list[Candidate]:
    saved = search._index_first
    search._index_first = lambda *a: None  # type: ignore[assignment]
    try:
        return store.keyword_search(TERMS, flt, k)
    finally:
        search._index_first = saved


@pytest.mark.parametrize("k", [1, 3, 5, 10, 20, 60])
@pytest.mark.parametrize(
    "flt",
    [
        SearchFilter(),
        SearchFilter(collection="other"),
        SearchFilter(category="c1"),
        SearchFilter(sources=("d3.txt", "d45.txt", "d58.txt", "d59.txt")),
    ],
)
def test_index_first_ranking_equals_the_joined_query(
    tmp_path: Path, flt: SearchFilter, k: int
) -> None:
    store = _store(tmp_path)
    assert store.keyword_search(TERMS, flt, k) == _joined(store, flt, k)
    store.close()


def test_index_first_answers_for_a_collection_holding_most_chunks(tmp_path: Path) -> None:
    store = _store(tmp_path)
    conn = store._conn
    cid = search.collection_id(conn, "default")
    assert cid is not None
    where, args = search.filter_sql(SearchFilter())
    assert search._index_first(conn, TERMS, cid, where, args, 3) is not None
    other = search.collection_id(conn, "other")
    assert other is not None
    assert search._index_first(conn, TERMS, other, where, args, 3) is None
    store.close()
