"""`search` and the answer flow's candidate pool read their list depths from the settings."""

from __future__ import annotations

from pathlib import Path

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.config import load_settings


def test_search_and_the_answer_pool_use_their_own_depths(tmp_path: Path) -> None:
    settings = load_settings(
        data_dir=tmp_path,
        embedder="hashing",
        keyword_k=7,
        vector_k=30,
        pool_keyword_k=15,
        pool_vector_k=16,
    )
    with Assistant(settings=settings, embedder="hashing") as a:
        search = inside(a).retriever().options
        assert (search.keyword_k, search.vector_k) == (7, 30)
        pool = inside(a).retriever(candidates=True).options
        assert (pool.keyword_k, pool.vector_k) == (15, 16)


def test_the_defaults_search_keyword_10_vector_50_and_pool_both_20(tmp_path: Path) -> None:
    s = load_settings(data_dir=tmp_path)
    assert (s.keyword_k, s.vector_k, s.pool_keyword_k, s.pool_vector_k) == (10, 50, 20, 20)
