"""Finds the files an ingest run should look at and names them (pure except for the walk)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
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
class FoundFile:
    path: Path
    # its identity in the collection: the path from the collection's root, or the absolute
    # path for a file outside it (`source_for`)
    source: str
    within: str = ""  # the path from the folder named on the command line (its category)


def absolute(path: Path) -> Path:
    """`path` made absolute without following symlinks (a link inside the folder stays
    inside it)."""
    return Path(os.path.abspath(path.expanduser()))


def source_for(path: Path, root: Path | None) -> str:
    """A file's source: its path from `root` when under it, else its absolute path; two
    folders holding the same file names so never name the same source."""
    full = absolute(path)
    if root is not None and full.is_relative_to(root):
        return full.relative_to(root).as_posix()
    return full.as_posix()


def default_root(paths: Sequence[Path]) -> Path | None:
    """The root a collection records at its first ingest: the first folder named (a file's
    own folder); None for no paths."""
    if not paths:
        return None
    first = absolute(paths[0])
    return first if first.is_dir() else first.parent


def discover(
    paths: Iterable[Path], is_supported: SupportCheck, root: Path | None = None
) -> tuple[list[FoundFile], list[FileOutcome]]:
    """Walks directories recursively and names each file by `source_for(path, root)`
    (without a root, by its path from the folder named, as before roots were kept). Hidden
    files/dirs are ignored silently, `IGNORED_DIRS` with one note each; unsupported
    extensions are reported as skipped so the user sees what was left out."""
    found: list[FoundFile] = []
    skipped: list[FileOutcome] = []
    for top in paths:
        top = top.expanduser()
        if not top.exists():
            raise InputError(f"no such file or directory: {top}")
        if top.is_file():
            source = top.name if root is None else source_for(top, root)
            _consider(top, source, top.name, is_supported, found, skipped, explicit=True)
            continue
        for path in _walk(top, skipped):
            rel = path.relative_to(top).as_posix()
            source = rel if root is None else source_for(path, root)
            _consider(path, source, rel, is_supported, found, skipped, explicit=False)
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
    within: str,
    is_supported: SupportCheck,
    found: list[FoundFile],
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
        found.append(FoundFile(path, source, within))
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
