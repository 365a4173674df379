"""The ingest worker embeds each text once: equal texts (after whitespace) in one batch are
embedded together, and a text stored before lends its vector (`Store.share_vectors`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from citewise.embed.hashing import HashingEmbedder
from citewise.ingest.embedding import EmbedWorker
from citewise.ingest.pipeline import _Silent
from citewise.store.sqlite.store import SQLiteStore
from citewise.testing.fakes import CountingEmbedder
from citewise.testing.store_documents import new_document


def _worker(store: SQLiteStore) -> EmbedWorker:
    return EmbedWorker(lambda: store, HashingEmbedder, _Silent(), lambda ids: None)


def test_equal_texts_are_embedded_once_and_later_copies_take_the_stored_vector(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "store.db")
    embedder = CountingEmbedder(HashingEmbedder())
    worker = _worker(store)
    try:
        store.add_document(new_document("a.txt", "Notices go to the address above."))
        store.add_document(
            new_document("a.txt", "Notices go to the\naddress   above.", collection="other")
        )
        store.add_document(new_document("b.txt", "Something else entirely."))
        worker._embed_once(store, embedder, store.chunks_missing_vectors(10))
        assert len(embedder.documents) == 2 and worker.shared == 1
        store.add_document(
            new_document("a.txt", "Notices go to the address above.", collection="third")
        )
        embedder.reset()
        worker._embed_once(store, embedder, store.chunks_missing_vectors(10))
        assert embedder.documents == [] and worker.shared == 2
        assert store.chunks_missing_vectors(10) == []
        vectors = store.get_vectors([1, 2, 4])
        assert np.allclose(vectors[1], vectors[2]) and np.allclose(vectors[1], vectors[4])
    finally:
        store.close()
