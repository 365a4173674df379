"""`citewise reindex`: brings every stored document up to this release's parsing and
chunking (`pipeline_key`) and every chunk to a vector, as an upgrade asks.

Each stale document is parsed again from its kept original (the exact bytes it was stored
from), else from its file, and replaces its old version the way an edit does: the old one
answers until the new one is embedded, and vectors of unchanged chunks are kept. Resumable
by construction: a run stopped at any point leaves staged versions and chunks without
vectors, which the next run finishes (`ingest_one` resumes a staged version)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path, PurePosixPath

from citewise.ingest.discovery import FoundFile
from citewise.ingest.originals import original_path
from citewise.store.base import Store
from citewise.types import DocumentInfo, FileOutcome

GONE = "no kept original and its file is gone: ingest it again"


def stale(store: Store, collection: str, key: str) -> list[DocumentInfo]:
    """The collection's documents stored under another parsing and chunking than `key`."""
    return [d for d in store.list_documents(collection) if d.pipeline != key]


def file_of(doc: DocumentInfo, root: str | None, originals: Path | None) -> Path | None:
    """Where the bytes of `doc` can be read: its kept original, else its file (an absolute
    source, or one under the collection's root); None when neither is there."""
    if originals is not None:
        kept = original_path(originals, doc.content_hash)
        if kept is not None and kept.is_file():
            return kept
    source = Path(doc.source)
    path = source if source.is_absolute() else (Path(root) / source if root else None)
    return path if path is not None and path.is_file() else None


def reindex_candidates(
    store: Store, collection: str, key: str, originals: Path | None, work: Path
) -> tuple[list[FoundFile], list[FileOutcome]]:
    """One candidate per stale document, named by its stored source; a kept original is
    linked into `work` under the source's file name (parsers go by the extension)."""
    root = store.collection_root(collection)
    found: list[FoundFile] = []
    missing: list[FileOutcome] = []
    for i, doc in enumerate(stale(store, collection, key)):
        path = file_of(doc, root, originals)
        if path is None:
            missing.append(FileOutcome(doc.source, "failed", GONE))
            continue
        if originals is not None and path.is_relative_to(originals):
            named = work / str(i) / PurePosixPath(doc.source).name
            named.parent.mkdir(parents=True)
            _link_or_copy(path, named)
            path = named
        within = "" if Path(doc.source).is_absolute() else doc.source
        found.append(FoundFile(path, doc.source, within))
    return found, missing


def _link_or_copy(source: Path, dest: Path) -> None:
    try:
        os.link(source, dest)
    except OSError:  # another file system
        shutil.copy2(source, dest)
