"""The SQLite store's HNSW indexes: one per collection, in files beside the database, kept
in step with the `vectors` table (the source of truth). Brought up to date by comparing the
(id, content signature) rows of both, so a missing, stale or corrupt file costs at worst a
rebuild, and a write killed half-way never leaves a search wrong."""

from __future__ import annotations

import hashlib
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from citewise.store.ann import files
from citewise.store.ann.hnsw import GraphLost, HnswIndex, HnswParams
from citewise.store.vector_index import EXACT_BELOW, IdArray
from citewise.types.vectors import Vectors

log = logging.getLogger(__name__)
_ACTIVE = (
    " FROM vectors v JOIN chunks ch ON ch.id = v.chunk_id JOIN documents d ON d.id = ch.doc_id"
    " WHERE v.collection_id = ? AND d.status != 'staged'"
)
_FETCH = 512  # ids per IN (...) query
# rewrite the file once this share of the index changed since it was last saved
_SAVE_SHARE = 0.01


def active_rows(conn: sqlite3.Connection, cid: int) -> tuple[IdArray, IdArray]:
    """The searchable vectors of a collection: ids (sorted) and their content signatures."""
    rows = conn.execute(f"SELECT v.chunk_id, ch.content_hash{_ACTIVE} ORDER BY v.chunk_id", (cid,))
    ids: list[int] = []
    sigs: list[int] = []
    for chunk_id, content_hash in rows:
        ids.append(chunk_id)
        sigs.append(_signature(content_hash))
    return np.array(ids, dtype=np.int64), np.array(sigs, dtype=np.int64)


def _signature(content_hash: str) -> int:
    try:  # a hex digest: its first 60 bits
        return int(content_hash[:15], 16)
    except ValueError:
        digest = hashlib.blake2b(content_hash.encode(), digest_size=7).digest()
        return int.from_bytes(digest, "little")


def vectors_of(conn: sqlite3.Connection, ids: IdArray) -> tuple[IdArray, Vectors]:
    """Those of `ids` still stored (a write may have removed some since the index was
    synced), in their order, and their float32 vectors."""
    found: dict[int, bytes] = {}
    for start in range(0, ids.shape[0], _FETCH):
        part = [int(i) for i in ids[start : start + _FETCH]]
        rows = conn.execute(
            f"SELECT chunk_id, vec FROM vectors WHERE chunk_id IN ({','.join('?' * len(part))})",
            part,
        )
        found.update((int(r[0]), r[1]) for r in rows)
    kept = np.array([i for i in ids.tolist() if i in found], dtype=np.int64)
    flat = np.frombuffer(b"".join(found[i] for i in kept.tolist()), dtype=np.float32)
    return kept, flat.reshape(kept.shape[0], -1)


def _blobs(
    conn: sqlite3.Connection, cid: int, wanted: IdArray
) -> Iterator[tuple[IdArray, Vectors]]:
    """The vectors of `wanted` (sorted) in batches: by id for a few, by a scan for many."""
    if wanted.shape[0] <= 20 * _FETCH:
        for start in range(0, wanted.shape[0], 4096):
            ids = wanted[start : start + 4096]
            yield vectors_of(conn, ids)
        return
    cur = conn.execute(f"SELECT v.chunk_id, v.vec{_ACTIVE} ORDER BY v.chunk_id", (cid,))
    while batch := cur.fetchmany(8192):
        ids = np.fromiter((r[0] for r in batch), dtype=np.int64, count=len(batch))
        keep = np.isin(ids, wanted)
        if keep.any():
            flat = np.frombuffer(b"".join(r[1] for r, k in zip(batch, keep, strict=True) if k),
                                 dtype=np.float32)  # fmt: skip
            yield ids[keep], flat.reshape(int(keep.sum()), -1)


class AnnIndexes:
    """The HNSW index of each large collection of one database file (in `folder`)."""

    def __init__(
        self, folder: Path, params: HnswParams | None = None, exact_below: int = EXACT_BELOW
    ) -> None:
        self.folder = folder
        self.params = params or HnswParams()
        self.exact_below = exact_below  # a collection this large or larger gets an index
        self.save_after = 1000  # changes since the last save that make it save again
        self._indexes: dict[int, HnswIndex] = {}
        self._unsaved: dict[int, int] = {}
        self._generations: dict[int, int] = {}  # the store's generation each was synced at

    def drop(self, cid: int) -> None:
        self._indexes.pop(cid, None)
        self._generations.pop(cid, None)

    def loaded(self, cid: int) -> HnswIndex | None:
        return self._indexes.get(cid)

    def current(self, cid: int, generation: int) -> HnswIndex | None:
        """The collection's index if it was synced at the store's `generation`."""
        if self._generations.get(cid) != generation:
            return None
        return self._indexes.get(cid)

    def synced(
        self,
        conn: sqlite3.Connection,
        cid: int,
        rows: tuple[IdArray, IdArray],
        dim: int,
        generation: int,
    ) -> HnswIndex:
        """The collection's index holding exactly the `rows` (ids, signatures) of the store
        at `generation`."""
        ids, sigs = rows
        folder = self.folder / f"c{cid}"
        index = self._indexes.get(cid)
        if index is None or index.dim != dim:
            index = files.load(folder, dim, self.params) or HnswIndex(dim, self.params)
            self._unsaved[cid] = 0
        stale = ~_rows_in(index.ids, index.sigs, ids, sigs)
        missing = ~_rows_in(ids, sigs, index.ids, index.sigs)
        changes = int(stale.sum() + missing.sum())
        if changes:
            try:
                index.read_in()
            except GraphLost as exc:
                log.warning("%s; rebuilding it from the store", exc)
                index = HnswIndex(dim, self.params)
                stale, missing = stale[:0], np.ones(ids.shape[0], dtype=bool)
            index.remove(index.ids[stale])
            for batch_ids, vectors in _blobs(conn, cid, ids[missing]):
                index.add(batch_ids, sigs[np.searchsorted(ids, batch_ids)], vectors)
        self._indexes[cid] = index
        self._generations[cid] = generation
        self._unsaved[cid] = self._unsaved.get(cid, 0) + changes
        if self._unsaved[cid] >= max(self.save_after, _SAVE_SHARE * len(index)):
            try:
                files.save(index, folder)
                self._unsaved[cid] = 0
            except OSError as exc:  # a cache: searching goes on from memory
                log.warning("could not save the vector index to %s: %s", folder, exc)
        return index


def _rows_in(
    ids: IdArray, sigs: IdArray, other_ids: IdArray, other_sigs: IdArray
) -> npt.NDArray[np.bool_]:
    """For each (id, sig) row, whether `other` holds the same row (both sorted by id)."""
    if other_ids.shape[0] == 0:
        return np.zeros(ids.shape[0], dtype=bool)
    at = np.clip(np.searchsorted(other_ids, ids), 0, other_ids.shape[0] - 1)
    same: npt.NDArray[np.bool_] = (other_ids[at] == ids) & (other_sigs[at] == sigs)
    return same
