"""What every SQLite store object of one database file shares within the process: the
write lock (one writer at a time) and the vector cache (one exact matrix per small
collection, one HNSW index per large one, in files beside the database)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from citewise.store.sqlite.ann import AnnIndexes
from citewise.store.vector_index import Partition


@dataclass
class SharedFileState:
    """What all store objects of one database file share within the process."""

    ann: AnnIndexes
    write_lock: threading.Lock = field(default_factory=threading.Lock)
    cache_lock: threading.Lock = field(default_factory=threading.Lock)
    partitions: dict[int, Partition] = field(default_factory=dict)


_SHARED: dict[tuple[str, int, int], SharedFileState] = {}
_SHARED_LOCK = threading.Lock()


def index_folder(path: Path) -> Path:
    """Where the HNSW indexes of the database file at `path` live (rebuildable from it)."""
    return path.with_name(path.name + ".vectors")


def shared_state(path: Path) -> SharedFileState:
    """The state of the file at `path`; a file replaced at the same path (another inode)
    gets a fresh cache."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_dev, stat.st_ino)
    with _SHARED_LOCK:
        state = _SHARED.get(key)
        if state is None:
            state = _SHARED[key] = SharedFileState(AnnIndexes(index_folder(path)))
        return state
