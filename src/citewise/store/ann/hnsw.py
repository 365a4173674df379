"""One collection's HNSW graph (usearch, int8 vectors) with the (id, signature) rows it
holds, so it can be compared with the store and brought up to date without a rebuild."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from usearch.index import Index

from citewise.errors import StoreError
from citewise.store.vector_index import IdArray
from citewise.types.vectors import Vectors

# the exact vectors of those of some ids still stored, and those ids (the store's rows)
VectorsOf = Callable[[IdArray], tuple[IdArray, Vectors]]
# a filter this small is ranked exactly from the stored vectors instead of over-fetching
EXACT_FILTER_BELOW = 20_000


class GraphLost(StoreError):
    """The graph's file vanished while it was read into memory: rebuild it from the store."""


@dataclass(frozen=True, slots=True)
class HnswParams:
    connectivity: int = 16
    expansion_add: int = 128
    expansion_search: int = 512
    # and at least one candidate explored per this many vectors: a search over clustered
    # vectors explores too little of a large cluster and can end stuck in another one
    vectors_per_expansion: int = 500
    dtype: str = "i8"
    # candidates taken from the graph per result wanted, then ranked by the exact vectors
    oversample: int = 4
    min_candidates: int = 40
    # a batch this large is added on two threads (faster, but the graph then depends on how
    # the threads interleave); a smaller one on one thread, so the same rows make the same graph
    parallel_add_from: int = 10_000


class HnswIndex:
    """The graph and its rows (sorted ids, each with the signature of its content). Mutations
    and searches take the index's own lock; a graph opened as a view of its file (read-only,
    memory-mapped) is loaded into memory on its first change."""

    def __init__(self, dim: int, params: HnswParams | None = None) -> None:
        self.params = params or HnswParams()
        self.dim = dim
        self.graph = self._new_graph()
        self.ids: IdArray = np.zeros(0, dtype=np.int64)
        self.sigs: IdArray = np.zeros(0, dtype=np.int64)
        self.lock = threading.RLock()
        self.view_of: str | None = None  # the file a read-only view maps

    def _new_graph(self) -> Index:
        p = self.params
        return Index(
            ndim=self.dim, metric="cos", dtype=p.dtype, connectivity=p.connectivity,
            expansion_add=p.expansion_add, expansion_search=p.expansion_search,
        )  # fmt: skip

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def lost(self) -> bool:
        """Whether the graph lost its rows (its file vanished while it was being read in)."""
        return len(self.graph) != len(self)

    def read_in(self) -> None:
        """Reads a mapped view into memory (it is changed next); raises `GraphLost`."""
        with self.lock:
            self._writable()

    def _writable(self) -> None:
        """A mapped view is read into memory before it changes: unmapped first, so the graph
        is resident once (a copy of the view only when its file was replaced meanwhile)."""
        if self.view_of is None:
            return
        path, self.view_of = self.view_of, None
        if not os.path.exists(path):
            self.graph = self.graph.copy()
            return
        self.graph.reset()  # type: ignore[no-untyped-call]
        try:
            self.graph.load(path)
        except (OSError, RuntimeError) as exc:
            raise GraphLost(f"the vector index file {path} could not be read in: {exc}") from exc

    def add(self, ids: IdArray, sigs: IdArray, vectors: Vectors) -> None:
        if ids.shape[0] == 0:
            return
        with self.lock:
            self._writable()
            threads = 2 if ids.shape[0] >= self.params.parallel_add_from else 1
            self.graph.add(ids, np.ascontiguousarray(vectors, dtype=np.float32), threads=threads)
            all_ids = np.concatenate([self.ids, ids])
            order = np.argsort(all_ids, kind="stable")
            self.ids = all_ids[order]
            self.sigs = np.concatenate([self.sigs, sigs])[order]

    def remove(self, ids: IdArray) -> None:
        if ids.shape[0] == 0:
            return
        with self.lock:
            self._writable()
            self.graph.remove(ids)
            keep = ~np.isin(self.ids, ids)
            self.ids, self.sigs = self.ids[keep], self.sigs[keep]

    def expansion(self) -> int:
        """How many candidates a search explores: more as the index grows."""
        p = self.params
        return max(p.expansion_search, len(self) // max(p.vectors_per_expansion, 1))

    def candidates(self, query: Vectors, count: int) -> IdArray:
        with self.lock:
            # usearch declares this setter apart from its getter, which mypy does not follow
            self.graph.expansion_search = self.expansion()  # type: ignore[misc]
            found = self.graph.search(np.ascontiguousarray(query, dtype=np.float32), count)
        return np.asarray(found.keys, dtype=np.int64)

    def bound(self, vectors_of: VectorsOf) -> BoundHnsw:
        return BoundHnsw(self, vectors_of)


class BoundHnsw:
    """A `VectorBackend`: the graph proposes candidates, the exact vectors rank them."""

    def __init__(self, index: HnswIndex, vectors_of: VectorsOf) -> None:
        self._index = index
        self._vectors_of = vectors_of

    def __len__(self) -> int:
        return len(self._index)

    def search(
        self, query: Vectors, k: int, allowed: IdArray | None = None
    ) -> list[tuple[int, float]]:
        index = self._index
        if k <= 0 or len(index) == 0:
            return []
        if query.shape[-1] != index.dim:
            raise ValueError(f"query has {query.shape[-1]} dimensions, the index {index.dim}")
        if allowed is not None:
            allowed = index.ids[np.isin(index.ids, allowed)]
            if allowed.shape[0] <= EXACT_FILTER_BELOW:
                return self._ranked(query, allowed, k)
        if index.lost():  # a search begun before its rebuild: exact, slow but right
            return self._ranked(query, index.ids if allowed is None else allowed, k)
        p = index.params
        want = max(k * p.oversample, p.min_candidates)
        while True:
            found = index.candidates(query, min(want, len(index)))
            if allowed is not None:
                found = found[np.isin(found, allowed)]
            if found.shape[0] >= min(k * p.oversample, len(index)) or want >= len(index):
                return self._ranked(query, found, k)
            want *= 4

    def _ranked(self, query: Vectors, ids: IdArray, k: int) -> list[tuple[int, float]]:
        ids, vectors = self._vectors_of(ids) if ids.shape[0] else (ids, None)
        if vectors is None or ids.shape[0] == 0:
            return []
        scores = vectors @ query.astype(np.float32)
        k = min(k, scores.shape[0])
        best = np.argpartition(-scores, k - 1)[:k]
        best = best[np.argsort(-scores[best], kind="stable")]
        return [(int(ids[i]), float(scores[i])) for i in best]
