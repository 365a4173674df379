"""The exact and the HNSW vector backends answer the same questions the same way: top-k by
cosine, filters before ranking, deletes without a rebuild."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from citewise.evaluation.bench import synthetic_vectors
from citewise.store.ann.hnsw import HnswIndex
from citewise.store.vector_index import IdArray, Partition, VectorBackend

N, DIM = 2000, 32
MATRIX = synthetic_vectors(N, dim=DIM, clusters=16)
IDS = np.arange(100, 100 + N, dtype=np.int64)  # ids are not row numbers
BY_ID = {int(i): row for i, row in zip(IDS, MATRIX, strict=True)}


def _exact(ids: IdArray = IDS, matrix: np.ndarray = MATRIX) -> VectorBackend:
    return Partition(0, ids, matrix)


def _stored(wanted: IdArray) -> tuple[IdArray, np.ndarray]:
    return wanted, np.stack([BY_ID[int(i)] for i in wanted])


def _hnsw(ids: IdArray = IDS, matrix: np.ndarray = MATRIX) -> VectorBackend:
    index = HnswIndex(DIM)
    index.add(ids, ids * 7, matrix)
    return index.bound(_stored)


Maker = Callable[[], VectorBackend]
BACKENDS = [pytest.param(_exact, id="exact"), pytest.param(_hnsw, id="hnsw")]


def _truth(query: np.ndarray, k: int, ids: IdArray = IDS) -> list[int]:
    scores = np.stack([BY_ID[int(i)] for i in ids]) @ query
    return [int(ids[i]) for i in np.argsort(-scores)[:k]]


@pytest.mark.parametrize("make", BACKENDS)
def test_search_finds_the_exact_top_k_with_cosine_scores(make: Maker) -> None:
    backend = make()
    assert len(backend) == N
    queries = synthetic_vectors(20, dim=DIM, clusters=16, seed=3)
    hits = 0
    for q in queries:
        found = backend.search(q, 10)
        assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
        assert found[0][1] == pytest.approx(float(BY_ID[found[0][0]] @ q), abs=1e-5)
        hits += len(set(_truth(q, 10)) & {i for i, _ in found})
    assert hits / (10 * len(queries)) >= 0.95


@pytest.mark.parametrize("make", BACKENDS)
def test_allowed_ids_restrict_candidates_before_ranking(make: Maker) -> None:
    backend = make()
    allowed = IDS[::50]
    q = MATRIX[7]
    found = backend.search(q, 5, allowed)
    assert [i for i, _ in found] == _truth(q, 5, allowed)
    assert backend.search(q, 5, np.array([999_999], dtype=np.int64)) == []


@pytest.mark.parametrize("make", BACKENDS)
def test_search_for_nothing_is_empty_and_a_wrong_dimension_fails(make: Maker) -> None:
    assert make().search(MATRIX[0], 0) == []
    with pytest.raises(ValueError, match="dimensions"):
        make().search(np.ones(DIM + 1, dtype=np.float32), 3)


def test_hnsw_delete_removes_ids_without_a_rebuild() -> None:
    index = HnswIndex(DIM)
    index.add(IDS, IDS, MATRIX)
    graph = index.graph
    gone = IDS[:1000]
    index.remove(gone)
    assert index.graph is graph and len(index) == N - 1000
    backend = index.bound(_stored)
    for q in MATRIX[:50]:
        assert not {i for i, _ in backend.search(q, 10)} & set(gone.tolist())
    assert list(index.ids) == sorted(IDS[1000:].tolist())


def test_hnsw_built_twice_from_the_same_rows_is_the_same_graph() -> None:
    first, second = HnswIndex(DIM), HnswIndex(DIM)
    first.add(IDS, IDS, MATRIX)
    second.add(IDS, IDS, MATRIX)
    assert bytes(first.graph.save()) == bytes(second.graph.save())


def test_hnsw_skips_candidates_the_store_no_longer_holds() -> None:
    index = HnswIndex(DIM)
    index.add(IDS, IDS, MATRIX)
    gone = set(IDS[:1000].tolist())  # deleted by another writer since the index was synced

    def stored(wanted: IdArray) -> tuple[IdArray, np.ndarray]:
        kept = np.array([i for i in wanted.tolist() if i not in gone], dtype=np.int64)
        return kept, np.stack([BY_ID[int(i)] for i in kept])

    for q in MATRIX[:20]:
        found = index.bound(stored).search(q, 10)
        assert found and not {i for i, _ in found} & gone


def test_the_store_and_the_onnx_runtime_load_in_either_order() -> None:
    """Some usearch builds crash the process when ONNX Runtime is loaded after them."""
    import subprocess
    import sys

    pytest.importorskip("onnxruntime")
    code = "import citewise.store.sqlite.store, citewise.store.ann.hnsw, onnxruntime"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
