"""Vector search backends behind one Protocol: exact search over one contiguous matrix per
collection (partition, not predicate), and an HNSW index (`citewise.store.ann`) for
collections too large for exact search to stay fast and small.

Exact search has perfect recall and needs no rebuild on delete — the store reloads a
partition only when its generation counter moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from citewise.types.vectors import Vectors

IdArray = npt.NDArray[np.int64]
# below this many vectors in a collection exact search is faster than HNSW and perfect
EXACT_BELOW = 50_000


class VectorBackend(Protocol):
    """Cosine top-k over one collection's vectors (rows L2-normalised)."""

    def __len__(self) -> int: ...

    def search(
        self, query: Vectors, k: int, allowed: IdArray | None = None
    ) -> list[tuple[int, float]]:
        """The best `k` (id, score) pairs, best first; `allowed` restricts the candidates
        before ranking, so a filter never costs recall."""
        ...


@dataclass(frozen=True, slots=True)
class Partition:
    generation: int
    ids: IdArray
    matrix: Vectors  # (n, dim), rows L2-normalised

    @classmethod
    def empty(cls, generation: int, dim: int = 0) -> Partition:
        return cls(generation, np.zeros(0, dtype=np.int64), np.zeros((0, dim), dtype=np.float32))

    @classmethod
    def from_blobs(cls, generation: int, rows: list[tuple[int, bytes]]) -> Partition:
        if not rows:
            return cls.empty(generation)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        flat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
        return cls(generation, ids, flat.reshape(len(rows), -1))

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def search(
        self, query: Vectors, k: int, allowed: IdArray | None = None
    ) -> list[tuple[int, float]]:
        return top_k(self, query, k, allowed)


def top_k(
    partition: Partition, query: Vectors, k: int, allowed: IdArray | None = None
) -> list[tuple[int, float]]:
    """Exact cosine top-k (vectors are normalised, so a dot product). `allowed` restricts the
    candidates before ranking, so a filter never costs recall."""
    if partition.matrix.shape[0] == 0 or k <= 0:
        return []
    if query.shape[-1] != partition.matrix.shape[1]:
        raise ValueError(
            f"query has {query.shape[-1]} dimensions, the index {partition.matrix.shape[1]}"
        )
    scores = partition.matrix @ query.astype(np.float32)
    if allowed is not None:
        mask = np.isin(partition.ids, allowed)
        scores = np.where(mask, scores, -np.inf)
        k = min(k, int(mask.sum()))
        if k == 0:
            return []
    k = min(k, scores.shape[0])
    idx = np.argpartition(-scores, k - 1)[:k]
    idx = idx[np.argsort(-scores[idx], kind="stable")]
    return [(int(partition.ids[i]), float(scores[i])) for i in idx]
