"""An HNSW index on disk: the graph and its rows under a random token, and a manifest
(replaced atomically, last) naming them with their sizes and checksums. A missing, partial
or corrupt set reads as `None`, and the caller rebuilds from the store."""

from __future__ import annotations

import json
import logging
import os
import secrets
import zlib
from dataclasses import asdict
from pathlib import Path

import numpy as np

from citewise.store.ann.hnsw import HnswIndex, HnswParams

log = logging.getLogger(__name__)
MANIFEST = "manifest.json"
FORMAT = 1
# the parameters the saved graph depends on; the others only tune searches
GRAPH_PARAMS = ("connectivity", "expansion_add", "dtype")


def save(index: HnswIndex, folder: Path) -> None:
    """Writes the index beside the previous one, then switches the manifest to it."""
    folder.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(6)
    graph_path, rows_path = folder / f"graph-{token}.usearch", folder / f"rows-{token}.npy"
    with index.lock:
        index.graph.save(str(graph_path))
        rows = np.stack([index.ids, index.sigs], axis=1) if len(index) else np.zeros((0, 2))
        np.save(rows_path, rows.astype(np.int64))
        manifest = {
            "format": FORMAT, "dim": index.dim, "rows": len(index), "token": token,
            "params": asdict(index.params),
            "graph_crc": _crc(graph_path), "rows_crc": _crc(rows_path),
        }  # fmt: skip
    _fsync(graph_path)
    _fsync(rows_path)
    tmp = folder / f"{MANIFEST}.{token}"
    tmp.write_text(json.dumps(manifest))
    _fsync(tmp)
    os.replace(tmp, folder / MANIFEST)
    for old in folder.iterdir():
        if old.name != MANIFEST and token not in old.name:
            old.unlink(missing_ok=True)


def load(folder: Path, dim: int, params: HnswParams, *, view: bool = True) -> HnswIndex | None:
    """The saved index if it is whole and was built for `dim` and `params`, else None."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    try:
        token = manifest["token"]
        graph_path, rows_path = folder / f"graph-{token}.usearch", folder / f"rows-{token}.npy"
        if (
            manifest["format"] != FORMAT
            or manifest["dim"] != dim
            or not _same_graph(manifest["params"], params)
            or _crc(graph_path) != manifest["graph_crc"]
            or _crc(rows_path) != manifest["rows_crc"]
        ):
            return None
        rows = np.load(rows_path)
        index = HnswIndex(dim, params)
        if view:
            index.graph.view(str(graph_path))
            index.view_of = str(graph_path)
        else:
            index.graph.load(str(graph_path))
    except (OSError, KeyError, TypeError, ValueError) as exc:
        log.warning("the vector index in %s is unreadable (%s); rebuilding it", folder, exc)
        return None
    if len(index.graph) != manifest["rows"] or rows.shape[0] != manifest["rows"]:
        return None
    index.ids = np.ascontiguousarray(rows[:, 0], dtype=np.int64)
    index.sigs = np.ascontiguousarray(rows[:, 1], dtype=np.int64)
    return index


def _same_graph(saved: dict[str, object], params: HnswParams) -> bool:
    """Whether a graph saved with `saved` parameters is the graph `params` build (the
    search-time ones may differ)."""
    return all(saved.get(name) == getattr(params, name) for name in GRAPH_PARAMS)


def _crc(path: Path) -> int:
    crc = 0
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            crc = zlib.crc32(block, crc)
    return crc


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
