"""Merging the ranked lists of a multi-part question (pure)."""

from __future__ import annotations

from citewise.answer.flow import interleave
from citewise.types import Hit


def _hit(chunk_id: int, rank: int) -> Hit:
    return Hit(rank, chunk_id, 1, "a.md", "A", None, None, "", 1.0 / rank, "t", 1)


def test_lists_alternate_best_first_without_duplicates() -> None:
    whole = [_hit(1, 1), _hit(2, 2), _hit(3, 3)]
    part = [_hit(9, 1), _hit(2, 2), _hit(8, 3)]
    merged = interleave([whole, part])
    assert [h.chunk_id for h in merged] == [1, 9, 2, 3, 8]
    assert [h.rank for h in merged] == [1, 2, 3, 4, 5]


def test_uneven_and_empty_lists() -> None:
    assert interleave([]) == []
    assert [h.chunk_id for h in interleave([[_hit(1, 1)], [], [_hit(2, 1), _hit(3, 2)]])] == [
        1,
        2,
        3,
    ]
