"""The exact and the HNSW vector backends answer the same questions the same way: top-k by
cosine, filters before ranking, deletes without a rebuild."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from citewise.evaluation.bench import synthetic_vectors
from citewise.store.ann import files
from citewise.store.ann.hnsw import HnswIndex, HnswParams
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
    assert not index.lost()  # searches go through the graph, not the exact fallback
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


def _recalls(params: HnswParams, matrix: np.ndarray, queries: np.ndarray) -> list[float]:
    ids = np.arange(matrix.shape[0], dtype=np.int64)
    index = HnswIndex(matrix.shape[1], params)
    index.add(ids, ids, matrix)
    backend = index.bound(lambda wanted: (wanted, matrix[wanted]))
    recalls = []
    for q in queries:
        truth = set(np.argsort(-(matrix @ q))[:10].tolist())
        recalls.append(len(truth & {i for i, _ in backend.search(q, 10)}) / 10)
    return recalls


def test_hnsw_searches_explore_more_as_the_index_grows() -> None:
    """Large clusters of near-equidistant vectors, a search exploring a fixed few of them
    (scaled down from 1M vectors in 256 clusters against 512): some searches end stuck
    away from their neighbours unless the exploration grows with the index."""
    both = synthetic_vectors(5100, dim=64, clusters=2, seed=2)
    matrix, queries = both[:5000], both[5000:]
    fixed = _recalls(HnswParams(expansion_search=40, vectors_per_expansion=10**9), matrix, queries)
    grown = _recalls(HnswParams(expansion_search=40, vectors_per_expansion=20), matrix, queries)
    assert np.mean(grown) >= 0.98 and min(grown) >= 0.8
    assert np.mean(fixed) < np.mean(grown) and min(fixed) < min(grown)


def test_a_saved_graph_is_reused_when_only_search_parameters_change(tmp_path: Path) -> None:
    index = HnswIndex(DIM)
    index.add(IDS, IDS, MATRIX)
    files.save(index, tmp_path)
    searched_wider = HnswParams(expansion_search=1024, vectors_per_expansion=10)
    assert files.load(tmp_path, DIM, searched_wider) is not None
    assert files.load(tmp_path, DIM, HnswParams(connectivity=32)) is None
    assert files.load(tmp_path, DIM, HnswParams(dtype="f16")) is None


def test_the_store_and_the_onnx_runtime_load_in_either_order() -> None:
    """Some usearch builds crash the process when ONNX Runtime is loaded after them."""
    import subprocess
    import sys

    pytest.importorskip("onnxruntime")
    code = "import citewise.store.sqlite.store, citewise.store.ann.hnsw, onnxruntime"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
