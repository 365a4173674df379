"""The PostgreSQL store's searches, as functions over a connection: BM25 over the tsvector
index, HNSW vector search with an iterative scan, and the genre heading lookup. Filters are
part of each query."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg

from citewise.store.postgres.tsvector import FIELD_WEIGHTS, tsquery_literal
from citewise.store.terms import search_terms
from citewise.text.headings import heading_names, last_heading
from citewise.types import Candidate, SearchFilter
from citewise.types.vectors import Vectors

Conn = psycopg.Connection[tuple[Any, ...]]

# BM25 as SQLite FTS5's bm25() computes it: per term, idf = ln((N - df + .5) / (df + .5))
# (at least 1e-6) times f (k1 + 1) / (f + k1 (1 - b + b |D| / avgdl)), where f counts the
# term's occurrences weighted by field and |D| is the chunk's token count. N, df and avgdl
# are the collection's. One pass: the chunks holding any term (GIN), each chunk's tsvector
# read once for both the document frequencies and the scores.
BM25_CTES = """
stats AS MATERIALIZED (
    SELECT count(*)::float8 AS n, coalesce(avg(n_tokens), 1)::float8 AS avgdl
    FROM chunks WHERE collection_id = %(cid)s
), matches AS MATERIALIZED (
    SELECT ch.id, ch.doc_id, ch.n_tokens, u.lexeme,
           (SELECT sum(CASE w WHEN 'A' THEN %(wa)s WHEN 'B' THEN %(wb)s ELSE %(wd)s END)
            FROM unnest(u.weights) AS w)::float8 AS f
    FROM chunks ch CROSS JOIN LATERAL unnest(ch.tsv) AS u(lexeme, positions, weights)
    WHERE ch.tsv @@ %(query)s::tsquery AND ch.collection_id = %(cid)s
      AND u.lexeme = ANY(%(terms)s::text[])
), idf AS MATERIALIZED (
    SELECT m.lexeme, greatest(ln((s.n - count(*) + 0.5) / (count(*) + 0.5)), 1e-6) AS idf
    FROM matches m CROSS JOIN stats s GROUP BY m.lexeme, s.n
)"""

# summed in lexeme order: floating-point sums in the order rows happen to arrive (a parallel
# scan's) differ in the last bit from run to run, and a tie would then break either way
BM25_RANKED = """
SELECT m.id,
       sum(i.idf * m.f * (%(k1)s + 1)
           / (m.f + %(k1)s * (1 - %(b)s + %(b)s * m.n_tokens / s.avgdl))
           ORDER BY m.lexeme) AS score
FROM matches m JOIN idf i ON i.lexeme = m.lexeme JOIN documents d ON d.id = m.doc_id
CROSS JOIN stats s
WHERE true {where}
GROUP BY m.id ORDER BY score DESC, m.id LIMIT %(k_keyword)s
"""

BM25 = f"WITH {BM25_CTES}{BM25_RANKED}"

# the iterative scan may return rows slightly out of order: re-sorted by the caller
NEAREST = """
SELECT v.chunk_id, -(v.embedding <#> %(q)s) AS score FROM vectors v
JOIN chunks ch ON ch.id = v.chunk_id JOIN documents d ON d.id = ch.doc_id
WHERE v.collection_id = %(cid)s {where}
ORDER BY v.embedding <#> %(q)s LIMIT %(k_vector)s
"""


def bm25_params(tokens: list[str], k: int) -> dict[str, object]:
    """The BM25 query's parameters (FTS5's k1, b and field weights) for `tokens`."""
    return {
        "terms": tokens, "query": tsquery_literal(tokens), "k_keyword": k, "k1": 1.2,
        "b": 0.75, "wa": FIELD_WEIGHTS["A"], "wb": FIELD_WEIGHTS["B"], "wd": FIELD_WEIGHTS["D"],
    }  # fmt: skip


def configure_search(conn: psycopg.Connection[tuple[Any, ...]]) -> None:
    """Session settings of every pooled connection: iterative HNSW scans (a filter cannot
    starve the result) with `EF_SEARCH` candidates."""
    conn.execute(
        "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', false),"
        " set_config('hnsw.ef_search', %s, false)",
        (str(EF_SEARCH),),
    )


EF_SEARCH = 100  # HNSW's candidate list per query; a deeper search asks for 2k


def scope(
    conn: Conn, ids: dict[str, int], flt: SearchFilter
) -> tuple[int | None, str, dict[str, object]]:
    """The collection id (cached in `ids`: a collection keeps its id for the life of the
    database) and the filter's SQL over `d` (documents), with its params."""
    cid = ids.get(flt.collection)
    if cid is None:
        row = conn.execute(
            "SELECT id FROM collections WHERE name = %s", (flt.collection,)
        ).fetchone()
        if row is not None:
            cid = ids[flt.collection] = int(row[0])
    sql = " AND d.status <> 'staged'"
    params: dict[str, object] = {}
    if flt.sources:
        sql += " AND d.source = ANY(%(f_sources)s)"
        params["f_sources"] = list(flt.sources)
    if flt.category is not None:
        sql += " AND d.category = %(f_category)s"
        params["f_category"] = flt.category
    if flt.tags:
        sql += " AND d.tags @> %(f_tags)s::text[]"
        params["f_tags"] = list(flt.tags)
    return cid, sql, params


def keyword_search(
    conn: Conn, ids: dict[str, int], terms: Sequence[str], flt: SearchFilter, k: int
) -> list[Candidate]:
    tokens = search_terms(terms)
    if not tokens or k < 1:
        return []
    cid, where, params = scope(conn, ids, flt)
    if cid is None:
        return []
    rows = conn.execute(
        BM25.format(where=where), {**params, "cid": cid, **bm25_params(tokens, k)}
    ).fetchall()
    return [Candidate(int(r[0]), i + 1, float(r[1])) for i, r in enumerate(rows)]


def vector_search(
    conn: Conn,
    ids: dict[str, int],
    query: Vectors,
    flt: SearchFilter,
    k: int,
    *,
    ef_search: int = EF_SEARCH,
) -> list[Candidate]:
    if k < 1:
        return []
    q = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
    cid, where, params = scope(conn, ids, flt)
    if cid is None:
        return []
    sql = NEAREST.format(where=where)
    args = {**params, "cid": cid, "q": q, "k_vector": k}
    if 2 * k <= ef_search:
        rows = conn.execute(sql, args).fetchall()
    else:
        with conn.transaction():
            conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(2 * k),))
            rows = conn.execute(sql, args).fetchall()
    ranked = sorted(((int(r[0]), float(r[1])) for r in rows), key=lambda r: (-r[1], r[0]))
    return [Candidate(c, i + 1, s) for i, (c, s) in enumerate(ranked)]


def heading_search(
    conn: Conn, ids: dict[str, int], name: str, flt: SearchFilter, k: int
) -> list[Candidate]:
    words = re.findall(r"[^\W_]+", name)
    phrase = tsquery_literal(words, weight="B", op=" <-> ")
    if not phrase or k < 1:
        return []
    cid, where, params = scope(conn, ids, flt)
    if cid is None:
        return []
    # the index finds the sections holding the name's words; the heading test is exact
    rows = conn.execute(
        "SELECT ch.id, ch.section FROM chunks ch JOIN documents d ON d.id = ch.doc_id"
        f" WHERE ch.tsv @@ %(q)s::tsquery AND ch.collection_id = %(cid)s{where}"
        " ORDER BY ch.id",
        {**params, "q": phrase, "cid": cid},
    ).fetchall()
    found = [int(r[0]) for r in rows if heading_names(last_heading(r[1]), name)][:k]
    return [Candidate(chunk_id, i + 1, 1.0) for i, chunk_id in enumerate(found)]
