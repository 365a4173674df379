"""The PostgreSQL store's hybrid search in one statement: BM25 ranks and HNSW ranks (the
collection and the filter inside both), joined in full and fused with RRF in SQL.

The CTEs are the plain searches' own SQL (`search`), so each list equals what
`keyword_search` and `vector_search` return, and the fusion orders as
`retrieve.fusion.reciprocal_rank_fusion` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from citewise.store.base import FusedCandidate, HybridQuery, HybridRanking
from citewise.store.postgres.search import (
    BM25_CTES,
    BM25_RANKED,
    EF_SEARCH,
    NEAREST,
    Conn,
    bm25_params,
    scope,
)
from citewise.store.terms import search_terms
from citewise.types import Candidate, SearchFilter

_NO_KEYWORDS = "SELECT NULL::bigint AS id, NULL::float8 AS score WHERE false"

# ranks as the plain searches number them: BM25 by (score desc, id), the nearest vectors
# re-sorted by (score desc, id) since the iterative scan may return them slightly out of order
_FUSE = """
keyword AS MATERIALIZED ({keyword}),
nearest AS MATERIALIZED ({nearest}),
kw AS (SELECT id AS chunk_id, score,
              row_number() OVER (ORDER BY score DESC, id) AS rank FROM keyword),
vec AS (SELECT chunk_id, score,
               row_number() OVER (ORDER BY score DESC, chunk_id) AS rank FROM nearest),
fused AS (
    SELECT coalesce(kw.chunk_id, vec.chunk_id) AS chunk_id, kw.rank AS k_rank,
           kw.score AS k_score, vec.rank AS v_rank, vec.score AS v_score,
           coalesce(%(w_keyword)s::float8 / (%(rrf_k)s::float8 + kw.rank), 0)
           + coalesce(%(w_vector)s::float8 / (%(rrf_k)s::float8 + vec.rank), 0) AS score
    FROM kw FULL OUTER JOIN vec ON vec.chunk_id = kw.chunk_id
)
SELECT chunk_id, k_rank, k_score, v_rank, v_score, score FROM fused
ORDER BY score DESC, least(k_rank, v_rank), chunk_id
"""


def hybrid_search(
    conn: Conn,
    ids: dict[str, int],
    query: HybridQuery,
    flt: SearchFilter,
    *,
    ef_search: int = EF_SEARCH,
) -> HybridRanking:
    tokens = search_terms(query.terms) if query.keyword_k > 0 else []
    q = np.ascontiguousarray(query.vector, dtype=np.float32).reshape(-1)
    cid, where, params = scope(conn, ids, flt)
    if cid is None:
        return HybridRanking([], [], [])
    keyword = BM25_RANKED.format(where=where) if tokens else _NO_KEYWORDS
    fuse = _FUSE.format(keyword=keyword, nearest=NEAREST.format(where=where))
    sql = f"WITH {BM25_CTES},{fuse}" if tokens else f"WITH {fuse}"
    args = {
        **params, **(bm25_params(tokens, query.keyword_k) if tokens else {}), "cid": cid,
        "q": q, "k_vector": max(0, query.vector_k), "rrf_k": query.rrf_k,
        "w_keyword": query.keyword_weight, "w_vector": query.vector_weight,
    }  # fmt: skip
    if 2 * query.vector_k <= ef_search:
        rows = conn.execute(sql, args).fetchall()
    else:  # a deeper HNSW search for this statement only
        with conn.transaction():
            conn.execute(
                "SELECT set_config('hnsw.ef_search', %s, true)", (str(2 * query.vector_k),)
            )
            rows = conn.execute(sql, args).fetchall()
    return ranking_of(rows)


def ranking_of(rows: list[tuple[Any, ...]]) -> HybridRanking:
    """The fused rows (chunk, keyword rank and score, vector rank and score, fused score)
    as the three lists."""
    fused: list[FusedCandidate] = []
    keyword: list[Candidate] = []
    vector: list[Candidate] = []
    for chunk_id, k_rank, k_score, v_rank, v_score, score in rows:
        cid = int(chunk_id)
        kr = None if k_rank is None else int(k_rank)
        vr = None if v_rank is None else int(v_rank)
        if kr is not None:
            keyword.append(Candidate(cid, kr, float(k_score)))
        if vr is not None:
            vector.append(Candidate(cid, vr, float(v_score)))
        fused.append(FusedCandidate(cid, float(score), kr, vr))
    keyword.sort(key=lambda c: c.rank)
    vector.sort(key=lambda c: c.rank)
    return HybridRanking(keyword, vector, fused)
