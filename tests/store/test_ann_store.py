"""The SQLite store's HNSW indexes: the same answers as exact search, deletes without a
rebuild, and index files that are only a cache (stale, corrupt or missing: rebuilt from
the database)."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from citewise.evaluation.bench import synthetic_vectors
from citewise.store.ann.hnsw import GraphLost, HnswIndex
from citewise.store.sqlite.shared import index_folder, shared_state
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import SearchFilter
from store.documents import new_document

DIM = 16
QUERIES = synthetic_vectors(10, dim=DIM, clusters=8, seed=5)


def _vector(chunk_id: int) -> np.ndarray:
    return synthetic_vectors(1, dim=DIM, clusters=8, seed=chunk_id)[0]


def _store(path: Path, *, exact_below: int = 20, save_after: int = 1) -> SQLiteStore:
    store = SQLiteStore(path)
    state = shared_state(path)
    state.ann.exact_below = exact_below
    state.ann.save_after = save_after
    return store


def _add(store: SQLiteStore, first: int, count: int, collection: str = "default") -> list[int]:
    docs = [
        store.add_document(new_document(f"d{i}.md", f"word{i} alpha", collection=collection))
        for i in range(first, first + count)
    ]
    ids = [cid for cid, _ in store.chunks_missing_vectors(10_000)]
    store.put_vectors(ids, np.stack([_vector(i) for i in ids]), "test")
    store.finalize()
    return docs


def _exact(store: SQLiteStore, query: np.ndarray, k: int) -> list[int]:
    """The top `k` of the searchable chunks that have a stored vector (a writer killed between
    adding a document and storing its vectors leaves chunks no vector search can find)."""
    unembedded = {cid for cid, _ in store.chunks_missing_vectors(10_000)}
    hits = store.keyword_search(["alpha"], SearchFilter(), 10_000)
    ids = [c.chunk_id for c in hits if c.chunk_id not in unembedded]
    scores = {i: float(_vector(i) @ query) for i in ids}
    return sorted(scores, key=lambda i: -scores[i])[:k]


def _found(store: SQLiteStore, query: np.ndarray, k: int, **flt: object) -> list[int]:
    hits = store.vector_search(query, SearchFilter(**flt), k)  # type: ignore[arg-type]
    return [c.chunk_id for c in hits]


def test_an_indexed_collection_answers_as_exact_search(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.db")
    _add(store, 0, 120)
    for q in QUERIES:
        assert _found(store, q, 10) == _exact(store, q, 10)
    assert shared_state(tmp_path / "s.db").ann.loaded(1) is not None
    only_d3 = [c.chunk_id for c in store.keyword_search(["word3"], SearchFilter(), 5)]
    assert _found(store, QUERIES[0], 5, sources=("d3.md",)) == only_d3
    store.close()


def test_a_small_collection_stays_exact(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.db", exact_below=1000)
    _add(store, 0, 30)
    assert _found(store, QUERIES[0], 10) == _exact(store, QUERIES[0], 10)
    assert shared_state(tmp_path / "s.db").ann.loaded(1) is None
    store.close()


def test_delete_removes_chunks_from_the_index_without_a_rebuild(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.db")
    docs = _add(store, 0, 60)
    _found(store, QUERIES[0], 10)
    index = shared_state(tmp_path / "s.db").ann.loaded(1)
    for doc_id in docs[:30]:
        store.delete_document(doc_id)
    for q in QUERIES:  # and no deleted chunk comes back
        assert _found(store, q, 10) == _exact(store, q, 10)
    assert shared_state(tmp_path / "s.db").ann.loaded(1) is index
    assert index is not None and len(index) == 30
    store.close()


def test_chunks_not_yet_embedded_are_left_out_and_the_rest_stay_exact(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.db")
    _add(store, 0, 60)
    store.add_document(new_document("late.md", "word999 alpha"))  # vectors never stored
    (late,) = store.chunks_missing_vectors(10)
    for q in QUERIES:
        found = _found(store, q, 10)
        assert late[0] not in found
        assert found == _exact(store, q, 10)
    store.close()


def _copy(src: Path, dst: Path) -> Path:
    """The database and its index files at another path: opened there with no cache."""
    dst.mkdir()
    shutil.copy(src, dst / src.name)
    shutil.copytree(index_folder(src), index_folder(dst / src.name))
    return dst / src.name


def _indexed(tmp_path: Path) -> tuple[Path, SQLiteStore, list[int]]:
    """A store of 80 documents whose index was built and saved by a first search."""
    path = tmp_path / "a" / "s.db"
    path.parent.mkdir()
    store = _store(path)
    docs = _add(store, 0, 80)
    _found(store, QUERIES[0], 10)
    return path, store, docs


@pytest.mark.parametrize("damage", ["stale", "corrupt", "missing"])
def test_an_index_file_behind_or_broken_is_brought_back_in_step(
    tmp_path: Path, damage: str
) -> None:
    path, store, docs = _indexed(tmp_path)
    shared_state(path).ann.save_after = 10**9
    if damage == "stale":  # the database moves on; the file keeps the older index
        for doc_id in docs[:20]:
            store.delete_document(doc_id)
        _add(store, 100, 20)
        _found(store, QUERIES[0], 10)
    store.close()
    folder = index_folder(path) / "c1"
    if damage == "corrupt":
        graph = next(folder.glob("graph-*"))
        graph.write_bytes(graph.read_bytes()[:100] + b"\0" * 64)
    copy = _copy(path, tmp_path / "b")
    if damage == "missing":
        shutil.rmtree(index_folder(copy))
    reopened = _store(copy)
    for q in QUERIES:  # nothing deleted or unknown comes back from the index
        assert _found(reopened, q, 10) == _exact(reopened, q, 10)
    reopened.close()


_WRITER = """
import sys
from pathlib import Path
import numpy as np
from citewise.evaluation.bench import synthetic_vectors
from citewise.store.sqlite.shared import shared_state
from citewise.store.sqlite.store import SQLiteStore
from citewise.testing.store_contract import new_document
from citewise.types import SearchFilter

path = Path(sys.argv[1])
store = SQLiteStore(path)
shared_state(path).ann.exact_below = 20
shared_state(path).ann.save_after = 1
q = np.ones(16, dtype=np.float32) / 4
for i in range(10**6):
    doc = store.add_document(new_document(f"w{i}.md", f"word{i} alpha"))
    ids = [cid for cid, _ in store.chunks_missing_vectors(100)]
    vecs = np.stack([synthetic_vectors(1, dim=16, clusters=8, seed=c)[0] for c in ids])
    store.put_vectors(ids, vecs, "test")
    store.finalize()
    if i % 3 == 2:
        store.delete_document(doc)
    store.vector_search(q, SearchFilter(), 10)
    print(i, flush=True)
"""


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_writer_killed_mid_insert_never_leaves_search_wrong(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "s.db"
    src = Path(__file__).resolve().parents[2] / "src"
    child = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(path)],
        stdout=subprocess.PIPE,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
    )
    assert child.stdout is not None
    for _ in range(30):  # past the index's first save
        child.stdout.readline()
    time.sleep(random.Random(seed).uniform(0.0, 1.5))
    child.send_signal(signal.SIGKILL)
    child.wait()
    store = _store(path)
    assert store.list_documents("default")
    for q in QUERIES:  # in step with the database after the kill
        assert _found(store, q, 10) == _exact(store, q, 10)
    store.close()


def test_an_index_whose_file_vanishes_while_read_in_is_rebuilt_from_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, store, docs = _indexed(tmp_path)
    store.close()
    reopened = _store(_copy(path, tmp_path / "b"))  # the index opens as a mapped view
    _found(reopened, QUERIES[0], 10)

    def vanished(self: HnswIndex) -> None:
        raise GraphLost("the file went away")

    monkeypatch.setattr(HnswIndex, "read_in", vanished)
    reopened.delete_document(docs[0])  # the next search changes the view: it is read in
    for q in QUERIES:
        assert _found(reopened, q, 10) == _exact(reopened, q, 10)
    reopened.close()
