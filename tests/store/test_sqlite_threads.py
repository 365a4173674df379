"""The SQLite store under threads: one object shared by readers and writers at once."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from citewise.store.sqlite.shared import shared_state
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import SearchFilter
from store.documents import new_document


def test_one_store_serves_concurrent_readers_and_writers(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            for i in range(10):
                store.add_document(new_document(f"w{worker}-{i}.md", f"alpha beta {worker} {i}"))
        except BaseException as exc:
            errors.append(exc)

    def read() -> None:
        try:
            for _ in range(30):
                store.keyword_search('"alpha"', SearchFilter(), 5)
                store.list_documents("default")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(3)]
    threads += [threading.Thread(target=read) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(store.list_documents("default")) == 30
    store.close()


def test_the_vector_cache_is_shared_by_threads_and_store_objects(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    doc_id = store.add_document(new_document("a.md", "alpha beta gamma"))
    ids = [cid for cid, _ in store.chunks_missing_vectors(10)]
    store.put_vectors(ids, np.ones((len(ids), 4), dtype=np.float32), "test")
    store.finalize()
    query = np.ones(4, dtype=np.float32)
    found: list[object] = []
    t = threading.Thread(target=lambda: found.append(store.vector_search(query, SearchFilter(), 1)))
    t.start()
    t.join()
    cache = shared_state(path).partitions
    part = next(iter(cache.values()))
    other = SQLiteStore(path)
    assert other.vector_search(query, SearchFilter(), 1)[0].chunk_id == ids[0]
    assert next(iter(cache.values())) is part  # built once, not per thread/object
    store.delete_document(doc_id)
    assert other.vector_search(query, SearchFilter(), 1) == []  # a write elsewhere refreshes it
    other.close()
    store.close()
