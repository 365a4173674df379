"""Original files kept by content hash, so the web UI can show the page a citation names
even after the file moved or changed (old answers keep opening the version they cited)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

_HASH = re.compile(r"[0-9a-f]{64}")


def original_path(directory: Path, content_hash: str) -> Path | None:
    """Where the original with this SHA-256 is kept; None for anything but a hash."""
    if not _HASH.fullmatch(content_hash):
        return None
    return directory / content_hash[:2] / content_hash


def keep_original(source: Path, content_hash: str, directory: Path) -> None:
    """Copies `source` under its hash (once; written to a temporary name, then renamed)."""
    dest = original_path(directory, content_hash)
    if dest is None or dest.exists():
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".part-")
    try:
        with os.fdopen(fd, "wb") as out, source.open("rb") as src:
            shutil.copyfileobj(src, out, 1 << 20)
        os.replace(tmp, dest)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def forget_original(directory: Path, content_hash: str) -> None:
    path = original_path(directory, content_hash)
    if path is not None:
        path.unlink(missing_ok=True)
