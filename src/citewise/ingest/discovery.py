"""Finds the files an ingest run should look at and names them (pure except for the walk)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from citewise.errors import InputError
from citewise.types import FileOutcome

SupportCheck = Callable[[Path], bool]
# Folders a walk does not enter: build output and tool caches, whose files duplicate or are
# not documents (Sphinx keeps each page's source beside its HTML in _sources, and copies of
# its figures, which OCR would read as text, in _images). Naming such a folder as the ingest
# argument still ingests it.
IGNORED_DIRS = frozenset(
    {"_images", "_sources", "_static", "__pycache__", "node_modules", "site-packages", "venv"}
)

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True, slots=True)
class Candidate:
    path: Path
    source: str  # relative to the directory argument; the file name for a file argument


def discover(
    paths: Iterable[Path], is_supported: SupportCheck
) -> tuple[list[Candidate], list[FileOutcome]]:
    """Walks directories recursively. Hidden files/dirs are ignored silently, `IGNORED_DIRS`
    with one note each; unsupported extensions are reported as skipped so the user sees
    what was left out."""
    found: list[Candidate] = []
    skipped: list[FileOutcome] = []
    for root in paths:
        root = root.expanduser()
        if not root.exists():
            raise InputError(f"no such file or directory: {root}")
        if root.is_file():
            _consider(root, root.name, is_supported, found, skipped, explicit=True)
            continue
        for path in _walk(root, skipped):
            rel = path.relative_to(root).as_posix()
            _consider(path, rel, is_supported, found, skipped, explicit=False)
    return found, skipped


def _walk(root: Path, skipped: list[FileOutcome]) -> list[Path]:
    """Files under `root` in sorted order, without entering hidden or ignored folders."""
    files: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        for name in sorted(dirnames):
            if name in IGNORED_DIRS and not name.startswith("."):
                rel = (here / name).relative_to(root).as_posix()
                skipped.append(FileOutcome(rel + "/", "skipped", "build or cache folder"))
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in IGNORED_DIRS]
        files.extend(here / f for f in filenames if not f.startswith("."))
    kept: list[Path] = []
    for path in sorted(files):
        if path.is_file():
            kept.append(path)
        elif path.is_symlink():
            rel = path.relative_to(root).as_posix()
            reason = "symlink loop or broken symlink: its target cannot be read"
            skipped.append(FileOutcome(printable(rel), "skipped", reason))
    return kept


def printable(name: str) -> str:
    """`name` with control characters shown as escapes, safe to print in a terminal."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), name)


def _consider(
    path: Path,
    source: str,
    is_supported: SupportCheck,
    found: list[Candidate],
    skipped: list[FileOutcome],
    *,
    explicit: bool,
) -> None:
    if _CONTROL.search(source):
        # such a name could rewrite the terminal that shows it, or a log line
        reason = "the file name holds control characters; rename it to ingest it"
        skipped.append(FileOutcome(printable(source), "skipped", reason))
        return
    # A file named explicitly is always tried, so a wrong extension gets a real reason.
    if explicit or is_supported(path):
        found.append(Candidate(path, source))
    else:
        suffix = path.suffix or "(no extension)"
        skipped.append(FileOutcome(source, "skipped", f"unsupported file type {suffix}"))


def category_for(source: str, metadata_category: str | None) -> str:
    """Front matter wins; otherwise the top-level folder of the source, if any."""
    if metadata_category:
        return metadata_category.strip()
    parts = source.split("/")
    return parts[0] if len(parts) > 1 else ""


def tags_for(raw: str | None) -> tuple[str, ...]:
    if not raw:
        return ()
    cleaned = raw.strip().strip("[]")
    return tuple(t.strip().strip("'\"") for t in cleaned.split(",") if t.strip())
