"""A file's identity in its collection: its path from the root the collection records (the
first folder ingested into it), or its absolute path outside it; and pruning, which removes
only documents under the folders an ingest names (docs/identity.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from citewise.ingest.discovery import FoundFile, absolute, default_root, discover
from citewise.store.base import Store
from citewise.types import FileOutcome


def discover_sources(
    store: Store,
    collection: str,
    paths: Sequence[Path],
    is_supported: Callable[[Path], bool],
    *,
    uploads: bool = False,
) -> tuple[list[FoundFile], list[FileOutcome]]:
    """The files of `paths` named by their source in the collection: their path from
    the root it records, which its first ingest that finds a file records (docs/identity.md)."""
    if uploads:
        return discover(paths, is_supported)
    recorded = store.collection_root(collection)
    root = Path(recorded) if recorded is not None else default_root(paths)
    candidates, outcomes = discover(paths, is_supported, root)
    if recorded is None and root is not None and candidates:
        kept = store.record_root(collection, root.as_posix())
        if kept != root.as_posix():  # another ingest recorded its root first
            candidates, outcomes = discover(paths, is_supported, Path(kept))
    return candidates, outcomes


def collection_root(store: Store, collection: str, paths: Sequence[Path]) -> Path | None:
    """The root the collection records, recorded now from `paths` when it has none (for a
    sender that names files for other processes, as `citewise enqueue`)."""
    recorded = store.collection_root(collection)
    if recorded is None:
        first = default_root(paths)
        recorded = None if first is None else store.record_root(collection, first.as_posix())
    return None if recorded is None else Path(recorded)


def prune(
    store: Store, collection: str, paths: Sequence[Path], seen: set[str]
) -> list[FileOutcome]:
    """Removes the documents under the folders of `paths` whose files were not seen:
    documents from other folders stay."""
    recorded = store.collection_root(collection)
    root = Path(recorded) if recorded is not None else None
    folders = [absolute(p) for p in paths if p.expanduser().is_dir()]
    pruned: list[FileOutcome] = []
    for doc in store.list_documents(collection):
        if doc.source in seen:
            continue
        where = absolute(root / doc.source) if root is not None else Path(doc.source)
        if any(where.is_relative_to(folder) for folder in folders):
            store.delete_document(doc.doc_id)
            pruned.append(FileOutcome(doc.source, "pruned", "file no longer present"))
    return pruned
