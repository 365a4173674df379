"""The BM25 ranking computed from the index's postings gives FTS5's own `bm25()` scores,
bit for bit, in FTS5's order (ties included), and steps aside whenever it could not."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from citewise.store.sqlite import bm25, search
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import Block, SearchFilter
from store.documents import document_of, new_document

WEIGHTS = search.KEYWORD_WEIGHTS


@pytest.fixture(autouse=True)
def _built_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bm25, "STABLE_SECONDS_PER_ROW", 0.0)


def _store(tmp_path: Path) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "s.db")
    for i in range(30):
        words = " ".join(["zebra"] * (i % 5) + ["plain words"] * (i % 7) + [f"item{i}"])
        section = ("Zebra crossing",) if i % 4 == 0 else (f"Part {i}",)
        blocks = [Block(f"{words} quokka {i % 3} " + "filler " * (i % 11), section)]
        store.add_document(document_of(f"zebra-{i}.txt" if i % 6 == 0 else f"d{i}.txt",
                                       blocks, digest=f"h{i}"))  # fmt: skip
    for i in range(5):  # tied scores: the same text in five documents
        store.add_document(new_document(f"tie{i}.txt", "a zebra and a quokka", digest=f"t{i}"))
    return store


def _fts5(conn: sqlite3.Connection, terms: list[str], depth: int) -> list[tuple[int, float]]:
    rows = conn.execute(
        f"SELECT rowid, {search._BM25} AS score FROM chunks_fts"
        " WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?",
        (search.fts5_match(terms), depth),
    ).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]


def _ranked(store: SQLiteStore, terms: list[str], depth: int) -> list[tuple[int, float]] | None:
    return bm25.ranked(store._conn, str(store.path), terms, WEIGHTS, depth)


@pytest.mark.parametrize(
    "terms", [["zebra"], ["zebra", "quokka"], ["quokka", "plain", "item7"], ["filler", "zebra"],
              ["nothing"], ["crossing", "words", "0", "2"]],
)  # fmt: skip
@pytest.mark.parametrize("depth", [1, 3, 7, 40])
def test_ranking_from_postings_equals_fts5_bm25(
    tmp_path: Path, terms: list[str], depth: int
) -> None:
    store = _store(tmp_path)
    assert _ranked(store, terms, depth) is None  # the first sight of the index: FTS5 ranks
    assert _ranked(store, terms, depth) == _fts5(store._conn, terms, depth)
    store.close()


def test_a_write_is_ranked_by_fts5_until_the_index_is_seen_unchanged(tmp_path: Path) -> None:
    store = _store(tmp_path)
    _ranked(store, ["zebra"], 5)
    assert _ranked(store, ["zebra"], 5) is not None
    store.add_document(new_document("new.txt", "zebra zebra zebra", digest="n"))
    assert _ranked(store, ["zebra"], 5) is None
    fresh = _ranked(store, ["zebra"], 5)
    assert fresh == _fts5(store._conn, ["zebra"], 5)
    assert fresh is not None and fresh[0][0] in {c for c, _ in _fts5(store._conn, ["zebra"], 1)}
    store.close()


def test_a_ranking_after_deletes_and_replacements_equals_fts5_bm25(tmp_path: Path) -> None:
    store = _store(tmp_path)
    for doc in store.list_documents("default")[::3]:
        store.delete_document(doc.doc_id)
    store.add_document(new_document("d1.txt", "zebra quokka words, new text", digest="r"))
    store.finalize()
    terms = ["zebra", "quokka", "words", "filler"]
    _ranked(store, terms, 40)
    assert _ranked(store, terms, 40) == _fts5(store._conn, terms, 40)
    store.close()


def test_an_index_seen_unchanged_only_briefly_is_ranked_by_fts5(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path)
    monkeypatch.setattr(bm25, "STABLE_SECONDS_PER_ROW", 3600.0)
    for _ in range(3):
        assert _ranked(store, ["zebra"], 5) is None
    monkeypatch.setattr(bm25, "STABLE_SECONDS_PER_ROW", 0.0)
    assert _ranked(store, ["zebra"], 5) == _fts5(store._conn, ["zebra"], 5)
    store.close()


def test_terms_fts5_might_tokenize_otherwise_are_left_to_it(tmp_path: Path) -> None:
    store = _store(tmp_path)
    _ranked(store, ["zebra"], 5)
    assert _ranked(store, ["zebra"], 5) is not None
    assert _ranked(store, ["straße"], 5) is None
    assert _ranked(store, ["zebra", "café"], 5) is None
    store.close()


def test_kept_postings_stay_within_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path)
    monkeypatch.setattr(bm25, "POSTINGS_BUDGET", 10)
    for terms in (["zebra"], ["zebra"], ["quokka"], ["filler"], ["words"]):
        assert _ranked(store, terms, 40) in (None, _fts5(store._conn, terms, 40))
    state = bm25._states[str(store.path)][1]
    assert state is not None
    assert state.held <= 10 or len(state.postings) == 1
    assert list(state.postings) == ["words"]
    store.close()


def test_keyword_search_hits_are_the_same_with_the_ranking_from_postings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path)
    flt = SearchFilter()
    terms = ["zebra", "quokka", "words"]
    for _ in range(2):
        computed = store.keyword_search(terms, flt, 10)
    monkeypatch.setattr(bm25, "ranked", lambda *a: None)
    assert computed == store.keyword_search(terms, flt, 10)
    store.close()


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 16_383, 16_384, 2_097_152, 2**40])
def test_varints_decode_sqlite_varints(value: int) -> None:
    groups = [value & 0x7F]
    rest = value >> 7
    while rest:
        groups.append(0x80 | (rest & 0x7F))
        rest >>= 7
    encoded = bytes(reversed(groups))
    assert bm25.varints(encoded + bytes([5])).tolist() == [value, 5]
