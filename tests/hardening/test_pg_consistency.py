"""The PostgreSQL consistency checks find each kind of damage they look for (so a crash test
that passes through them means something)."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from hardening.consistency import index_problems, write_file
from hardening.pg_consistency import pg_stored_words, pg_table_problems, pg_vector_problems

pytestmark = pytest.mark.integration

DAMAGE = [
    (
        "UPDATE chunks SET has_vector = false WHERE id = (SELECT min(chunk_id) FROM vectors)",
        "vectors of chunks marked unembedded",
    ),
    (
        "UPDATE chunks SET tsv = 'unrelated:1'::tsvector WHERE id = (SELECT max(id) FROM chunks)",
        "chunks whose keyword terms are another text's",
    ),
    (
        "UPDATE vectors SET embedding = (SELECT embedding FROM vectors ORDER BY chunk_id DESC"
        " LIMIT 1) WHERE chunk_id = (SELECT min(chunk_id) FROM vectors)",
        "vectors of another text",
    ),
    ("UPDATE documents SET chunk_count = chunk_count + 1", "chunk count is wrong"),
]


def test_each_kind_of_damage_is_reported(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITEWISE_STORE", postgres_url)
    corpus, data = tmp_path / "docs", tmp_path / "data"
    corpus.mkdir()
    words = {f"note{i:03d}.md": write_file(corpus, i, 0) for i in range(3)}
    from citewise.assistant import Assistant

    with Assistant(data_dir=data, embedder="hashing") as a:
        a.ingest([corpus])
    assert pg_table_problems(postgres_url) + pg_vector_problems(postgres_url) == []
    assert pg_stored_words(postgres_url) == words
    assert index_problems(data, words) == []
    for sql, reported in DAMAGE:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(sql)
        found = pg_table_problems(postgres_url) + pg_vector_problems(postgres_url)
        assert any(reported in p for p in found), (reported, found)
