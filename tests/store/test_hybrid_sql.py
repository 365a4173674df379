"""The PostgreSQL store's one-statement hybrid search gives exactly what the two plain
searches fused by the Python RRF give: the same lists, the same fused order (ties included:
documents with the same text tie in both lists), the same scores; and the retriever answers
the same through either."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from citewise.embed.hashing import HashingEmbedder
from citewise.retrieve.fusion import reciprocal_rank_fusion
from citewise.retrieve.retriever import HybridRetriever, RetrievalOptions
from citewise.store.base import HybridQuery, HybridSearch, Store
from citewise.store.postgres.store import PostgresStore
from citewise.types import SearchFilter
from store.documents import new_document

pytestmark = pytest.mark.integration

WORDS = [
    "log",
    "rotate",
    "file",
    "handler",
    "socket",
    "level",
    "warning",
    "root",
    "logger",
    "night",
    "copy",
    "archive",
    "backup",
    "restore",
    "index",
    "query",
    "vector",
    "keyword",
    "token",
    "parse",
    "split",
    "merge",
    "cache",
]
EMBEDDER = HashingEmbedder(dim=32)


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12))) + "."


@pytest.fixture(scope="module")
def pg_store(postgres_server: object) -> Iterator[PostgresStore]:
    from pg_server import PostgresServer

    assert isinstance(postgres_server, PostgresServer)
    name = postgres_server.create_database()
    store = PostgresStore(postgres_server.url(name))
    rng = random.Random(7)
    texts = [_text(rng) for _ in range(50)]
    texts += texts[:8]  # the same texts again: ties in both lists
    for i, text in enumerate(texts):
        collection = "default" if i % 5 else "other"
        store.add_document(new_document(f"d{i}.txt", text, collection=collection,
                                        category="even" if i % 2 == 0 else ""))  # fmt: skip
    missing = store.chunks_missing_vectors(10_000)
    ids, chunk_texts = [c for c, _ in missing], [t for _, t in missing]
    # signs only: many chunks lie at the same distance from a query, so vector scores tie too
    signs = np.sign(EMBEDDER.embed_documents(chunk_texts)) + 0.0
    signs /= np.linalg.norm(signs, axis=1, keepdims=True)
    store.put_vectors(ids, signs.astype(np.float32), EMBEDDER.name, texts=chunk_texts)
    store.finalize()
    yield store
    store.close()
    postgres_server.drop_database(name)


def _python_fusion(
    store: Store, query: HybridQuery, flt: SearchFilter
) -> tuple[list[tuple[int, float, dict[str, int]]], list[object], list[object]]:
    keyword = store.keyword_search(query.terms, flt, query.keyword_k)
    vector = store.vector_search(query.vector, flt, query.vector_k)
    fused = reciprocal_rank_fusion(
        {"keyword": keyword, "vector": vector}, k=query.rrf_k,
        weights={"keyword": query.keyword_weight, "vector": query.vector_weight},
    )  # fmt: skip
    return [(f.chunk_id, f.score, dict(f.ranks)) for f in fused], list(keyword), list(vector)


def _sql_fusion(
    store: HybridSearch, query: HybridQuery, flt: SearchFilter
) -> tuple[list[tuple[int, float, dict[str, int]]], list[object], list[object]]:
    got = store.hybrid_search(query, flt)
    rows = []
    for f in got.fused:
        ranks = {"keyword": f.keyword_rank, "vector": f.vector_rank}
        rows.append((f.chunk_id, f.score, {k: r for k, r in ranks.items() if r is not None}))
    return rows, list(got.keyword), list(got.vector)


@pytest.mark.parametrize(
    ("terms", "flt", "depths", "weights"),
    [
        (["log", "rotate"], SearchFilter(), (10, 10), (1.0, 1.0)),
        (["cache", "merge", "token"], SearchFilter(), (20, 50), (1.0, 1.0)),
        (["backup", "restore"], SearchFilter(), (5, 30), (2.0, 0.5)),
        (["query", "index"], SearchFilter(category="even"), (10, 20), (1.0, 1.0)),
        (["level", "warning"], SearchFilter(collection="other"), (10, 10), (1.0, 1.0)),
        (["the", "and"], SearchFilter(), (10, 10), (1.0, 1.0)),  # no keyword tokens
        (["socket"], SearchFilter(), (10, 70), (1.0, 1.0)),  # a deeper HNSW search
        (["log"], SearchFilter(collection="nowhere"), (10, 10), (1.0, 1.0)),
    ],
)
def test_one_statement_hybrid_equals_python_rrf_of_both_searches(
    pg_store: PostgresStore,
    terms: list[str],
    flt: SearchFilter,
    depths: tuple[int, int],
    weights: tuple[float, float],
) -> None:
    query = HybridQuery(
        terms=terms, vector=EMBEDDER.embed_query(" ".join(terms) + " file"),
        keyword_k=depths[0], vector_k=depths[1], rrf_k=60,
        keyword_weight=weights[0], vector_weight=weights[1],
    )  # fmt: skip
    sql_rows, sql_kw, sql_vec = _sql_fusion(pg_store, query, flt)
    py_rows, py_kw, py_vec = _python_fusion(pg_store, query, flt)
    assert sql_kw == py_kw
    assert sql_vec == py_vec
    assert sql_rows == py_rows  # ids, scores and ranks, in order
    if flt.collection != "nowhere":
        assert sql_rows, "the case must rank something"


def test_fused_ties_are_broken_by_best_rank_then_id(pg_store: PostgresStore) -> None:
    query = HybridQuery(terms=["archive", "copy"], vector=EMBEDDER.embed_query("night root"),
                        keyword_k=15, vector_k=15)  # fmt: skip
    rows, _, _ = _sql_fusion(pg_store, query, SearchFilter())
    keys = [(-score, min(ranks.values()), cid) for cid, score, ranks in rows]
    assert keys == sorted(keys)
    assert len({score for _, score, _ in rows}) < len(rows)  # some scores do tie
    _, _, vector = _sql_fusion(pg_store, query, SearchFilter())
    assert len({c.score for c in vector}) < len(vector)  # and some distances


class _WithoutHybrid:
    """The same store, minus its one-statement hybrid search (so Python fuses)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        if name == "hybrid_search":
            raise AttributeError(name)
        return getattr(self._store, name)


def test_retriever_answers_the_same_with_sql_or_python_fusion(
    pg_store: PostgresStore, tmp_path: Path
) -> None:
    opts = RetrievalOptions(keyword_k=10, vector_k=20)
    in_sql = HybridRetriever(pg_store, lambda: EMBEDDER, opts)
    in_python = HybridRetriever(_WithoutHybrid(pg_store), lambda: EMBEDDER, opts)  # type: ignore[arg-type]
    for query in ("how to rotate the log file", "restore a backup archive", "-m cache"):
        a = in_sql.search(query, k=8, flt=SearchFilter())
        b = in_python.search(query, k=8, flt=SearchFilter())
        assert "hybrid_sql" in a.timings_ms and "hybrid_sql" not in b.timings_ms
        assert [(h.chunk_id, h.score, h.rank) for h in a.hits] == [
            (h.chunk_id, h.score, h.rank) for h in b.hits
        ]
    assert np.isfinite(a.hits[0].score)
