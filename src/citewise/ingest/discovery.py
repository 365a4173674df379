"""Finds the files an ingest run should look at and names them (pure except for the walk)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from citewise.errors import InputError
from citewise.types import FileOutcome

SupportCheck = Callable[[Path], bool]


@dataclass(frozen=True, slots=True)
class Candidate:
    path: Path
    source: str  # relative to the directory argument; the file name for a file argument


def discover(
    paths: Iterable[Path], is_supported: SupportCheck
) -> tuple[list[Candidate], list[FileOutcome]]:
    """Walks directories recursively. Hidden files/dirs are ignored silently; unsupported
    extensions are reported as skipped so the user sees what was left out."""
    found: list[Candidate] = []
    skipped: list[FileOutcome] = []
    for root in paths:
        root = root.expanduser()
        if not root.exists():
            raise InputError(f"no such file or directory: {root}")
        if root.is_file():
            _consider(root, root.name, is_supported, found, skipped, explicit=True)
            continue
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root)
            if any(part.startswith(".") for part in rel.parts) or not path.is_file():
                continue
            _consider(path, rel.as_posix(), is_supported, found, skipped, explicit=False)
    return found, skipped


def _consider(
    path: Path,
    source: str,
    is_supported: SupportCheck,
    found: list[Candidate],
    skipped: list[FileOutcome],
    *,
    explicit: bool,
) -> None:
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
