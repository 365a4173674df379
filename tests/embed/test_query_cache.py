"""The query-vector cache shared by every stage that embeds the same question."""

from __future__ import annotations

import numpy as np
import pytest

from citewise.embed._util import QueryCache


def test_a_repeated_query_is_computed_once_and_comes_back_read_only() -> None:
    cache = QueryCache(size=2)
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
    cache = QueryCache(size=2)
    calls: list[str] = []
    for text in ("a", "b", "a", "c", "b"):
        cache.get(text, lambda t=text: (calls.append(t), np.zeros(1, np.float32))[1])
    assert calls == ["a", "b", "c", "b"]
