"""The checks of `consistency` on a PostgreSQL store: the same orphans, flags and counts in
its tables, each chunk's keyword terms (its tsvector column, the keyword index) those of its
text, each vector the embedding of its chunk's text."""

from __future__ import annotations

import psycopg
from pgvector.psycopg import register_vector

from hardening.consistency import STORED_TEXT_SQL, words_of

ORPHANS = {
    "chunks without a document": "SELECT count(*) FROM chunks c"
    " WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = c.doc_id)",
    "parents without a document": "SELECT count(*) FROM parents p"
    " WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = p.doc_id)",
    "chunks without keyword terms": "SELECT count(*) FROM chunks WHERE tsv = ''::tsvector",
    "vectors without a chunk": "SELECT count(*) FROM vectors v"
    " WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)",
    "vectors in another collection than their chunk": "SELECT count(*) FROM vectors v"
    " JOIN chunks c ON c.id = v.chunk_id WHERE c.collection_id <> v.collection_id",
    "chunks marked embedded without a vector": "SELECT count(*) FROM chunks c"
    " WHERE has_vector AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)",
    "vectors of chunks marked unembedded": "SELECT count(*) FROM chunks c"
    " WHERE NOT has_vector AND EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)",
    "ready documents with unembedded chunks": "SELECT count(*) FROM documents d"
    " WHERE status = 'ready' AND EXISTS"
    " (SELECT 1 FROM chunks c WHERE c.doc_id = d.id AND NOT has_vector)",
    "documents whose chunk count is wrong": "SELECT count(*) FROM documents d"
    " WHERE chunk_count != (SELECT count(*) FROM chunks c WHERE c.doc_id = d.id)",
    "sources listed twice": "SELECT count(*) FROM (SELECT 1 FROM documents"
    " WHERE status <> 'staged' GROUP BY collection_id, source HAVING count(*) > 1)",
}


def pg_table_problems(url: str) -> list[str]:
    from citewise.store.postgres.tsvector import tsvector_literal

    problems: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        for what, sql in ORPHANS.items():
            row = conn.execute(sql).fetchone()
            if row and row[0]:
                problems.append(f"{row[0]} {what}")
        rows = conn.execute(
            "SELECT c.id, d.title, c.section, c.text FROM chunks c JOIN documents d"
            " ON d.id = c.doc_id"
        ).fetchall()
        if rows:
            wrong = conn.execute(
                "SELECT array_agg(c.id) FROM chunks c JOIN unnest(%s::bigint[], %s::text[])"
                " AS u(id, lit) ON u.id = c.id WHERE c.tsv <> u.lit::tsvector",
                (
                    [int(r[0]) for r in rows],
                    [tsvector_literal(str(r[1]), str(r[2]), str(r[3]))[0] for r in rows],
                ),
            ).fetchone()
            if wrong and wrong[0]:
                problems.append(f"{len(wrong[0])} chunks whose keyword terms are another text's")
    return problems


def pg_vector_problems(url: str) -> list[str]:
    """Each stored vector is the hashing embedding of its chunk's text."""
    import numpy as np

    from citewise.embed.hashing import HashingEmbedder

    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        rows = conn.execute(
            "SELECT c.id, c.embed_text, v.embedding FROM chunks c"
            " JOIN vectors v ON v.chunk_id = c.id"
        ).fetchall()
    if not rows:
        return []
    expected = HashingEmbedder().embed_documents([str(r[1]) for r in rows])
    wrong = [
        int(r[0])
        for r, ref in zip(rows, expected, strict=True)
        if float(np.asarray(_array(r[2]), dtype=np.float32) @ ref) < 0.999
    ]
    return [f"{len(wrong)} vectors of another text (chunks {wrong[:5]})"] if wrong else []


def pg_stored_words(url: str) -> dict[str, str]:
    """Each listed document's word, read from its stored text (when the files moved on)."""
    with psycopg.connect(url, autocommit=True) as conn:
        return words_of(conn.execute(STORED_TEXT_SQL).fetchall())


def _array(value: object) -> object:
    """pgvector's `Vector` (or an array, depending on the pgvector version) as numbers."""
    to_numpy = getattr(value, "to_numpy", None)
    return to_numpy() if to_numpy is not None else value
