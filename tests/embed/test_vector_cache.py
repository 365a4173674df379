"""The vector cache: one model call for a question every stage embeds, and for the sentences
a follow-up's answer weighs again."""

from __future__ import annotations

import numpy as np
import pytest

from citewise.embed._util import TextVectorCache


def test_a_repeated_query_is_computed_once_and_comes_back_read_only() -> None:
    cache = TextVectorCache(size=2)
    calls: list[str] = []

    def compute(text: str) -> np.ndarray:
        calls.append(text)
        return np.full(3, len(text), dtype=np.float32)

    first = cache.get("what is asyncio?", lambda: compute("what is asyncio?"))
    again = cache.get("what is asyncio?", lambda: compute("what is asyncio?"))
    assert again is first and calls == ["what is asyncio?"]
    with pytest.raises(ValueError):
        first[0] = 1.0


def test_the_least_recently_used_query_is_evicted() -> None:
    cache = TextVectorCache(size=2)
    calls: list[str] = []
    for text in ("a", "b", "a", "c", "b"):
        cache.get(text, lambda t=text: (calls.append(t), np.zeros(1, np.float32))[1])
    assert calls == ["a", "b", "c", "b"]


def test_get_many_computes_only_the_missing_texts_once_and_keeps_their_order() -> None:
    cache = TextVectorCache(size=10)
    batches: list[list[str]] = []

    def compute(texts: list[str]) -> np.ndarray:
        batches.append(texts)
        return np.array([[float(len(t))] for t in texts], dtype=np.float32)

    cache.get_many(["aa", "b"], compute)
    out = cache.get_many(["ccc", "aa", "ccc", "b"], compute)
    assert batches == [["aa", "b"], ["ccc"]]
    assert out[:, 0].tolist() == [3.0, 2.0, 3.0, 1.0]
