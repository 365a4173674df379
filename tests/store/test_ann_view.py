"""A graph opened as a memory-mapped view is read into memory before it changes: from its
file after unmapping (resident once), by copying the view when the file was replaced, and
when the file vanishes mid-read the index says so and searches stay exact until rebuilt."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from citewise.evaluation.bench import synthetic_vectors
from citewise.store.ann import files
from citewise.store.ann.hnsw import GraphLost, HnswIndex, HnswParams

DIM = 32
MATRIX = synthetic_vectors(1500, dim=DIM, clusters=8, seed=4)
IDS = np.arange(1, 1501, dtype=np.int64)


def _stored(wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return wanted, MATRIX[wanted - 1]


def _truth(query: np.ndarray, k: int = 10) -> list[int]:
    return [int(i) + 1 for i in np.argsort(-(MATRIX @ query))[:k]]


def _viewed(folder: Path) -> HnswIndex:
    built = HnswIndex(DIM)
    built.add(IDS, IDS, MATRIX)
    files.save(built, folder)
    index = files.load(folder, DIM, HnswParams())
    assert index is not None and index.view_of is not None
    return index


def _graph_file(folder: Path) -> Path:
    return next(folder.glob("graph-*.usearch"))


def _found(index: HnswIndex, query: np.ndarray) -> list[int]:
    return [i for i, _ in index.bound(_stored).search(query, 10)]


def test_a_view_read_in_no_longer_needs_its_file(tmp_path: Path) -> None:
    index = _viewed(tmp_path)
    index.read_in()
    assert index.view_of is None and len(index.graph) == len(index)
    os.unlink(_graph_file(tmp_path))  # nothing is mapped from it any more
    index.remove(IDS[:1])
    assert not index.lost()  # a delete leaves graph and rows in step: searches stay on the graph
    for q in MATRIX[10:20]:
        assert _found(index, q) == [i for i in _truth(q, 11) if i != 1][:10]


def test_a_view_whose_file_was_replaced_is_copied(tmp_path: Path) -> None:
    index = _viewed(tmp_path)
    os.unlink(_graph_file(tmp_path))  # another process saved a newer index since
    index.read_in()
    assert index.view_of is None and len(index.graph) == len(index)
    assert _found(index, MATRIX[3]) == _truth(MATRIX[3])


def test_a_file_unreadable_mid_read_is_reported_and_searches_stay_exact(
    tmp_path: Path,
) -> None:
    index = _viewed(tmp_path)
    graph = _graph_file(tmp_path)
    os.unlink(graph)
    graph.write_bytes(b"not a graph")  # replaced between the check and the read
    with pytest.raises(GraphLost):
        index.read_in()
    assert index.lost()
    for q in MATRIX[:5]:
        assert _found(index, q) == _truth(q)
