"""Races between the embedding worker and a replace or delete on the same store."""

from __future__ import annotations

from pathlib import Path

from citewise.embed.hashing import HashingEmbedder
from citewise.store.sqlite.store import SQLiteStore
from store.documents import new_document


def test_vectors_embedded_for_a_deleted_chunk_never_land_on_a_chunk_reusing_its_id(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "citewise.db")
    embedder = HashingEmbedder()
    old = store.add_document(new_document("a.md", "Otters float on their backs in kelp."))
    batch = store.chunks_missing_vectors(100)  # the worker took these ...
    store.delete_document(old)  # ... a replace or rm removed them meanwhile ...
    store.add_document(new_document("b.md", "Ferns reproduce with spores, not seeds."))
    reused = {cid for cid, _ in store.chunks_missing_vectors(100)} & {cid for cid, _ in batch}
    assert reused, "SQLite did not reuse the chunk ids; the race cannot be shown"
    vectors = embedder.embed_documents([text for _, text in batch])
    store.put_vectors(
        [cid for cid, _ in batch], vectors, embedder.name, texts=[t for _, t in batch]
    )
    # the new chunks still wait for their own vectors
    assert {cid for cid, _ in store.chunks_missing_vectors(100)} >= reused
    store.close()
