"""Batches group texts of one token length (no padding) and every text keeps its row."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from citewise.embed.minilm.runtime import length_buckets


def test_texts_of_one_length_share_a_batch_up_to_its_size() -> None:
    lengths = [5, 9, 5, 5, 9, 7]
    assert length_buckets(lengths, 2) == [[0, 2], [3], [5], [1, 4]]


@given(st.lists(st.integers(min_value=3, max_value=256), max_size=200), st.integers(1, 40))
def test_every_text_is_in_one_batch_of_equal_lengths(lengths: list[int], size: int) -> None:
    batches = length_buckets(lengths, size)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:
        assert 1 <= len(batch) <= size
        assert len({lengths[i] for i in batch}) == 1
