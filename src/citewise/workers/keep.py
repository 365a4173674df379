"""Keeping an uploaded file once it is ingested: moved to where re-ingest reads it (a failed
one is removed), its staging folder gone with its last file. The API's in-process jobs and
the queue workers both keep uploads this way."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path


def upload_to_read(staged: Path, keep_dir: Path) -> Path:
    """The staged upload, or its kept copy when an earlier attempt kept it and then failed
    before recording its outcome (this is the retry)."""
    kept = keep_dir / staged.name
    return kept if not staged.exists() and kept.exists() else staged


def keep_upload(path: Path, keep_dir: Path, *, keep: bool) -> None:
    """Moves an ingested upload to where re-ingest reads it (a failed one is removed), and
    removes its staging folder once the folder's last file is done."""
    if keep:
        keep_dir.mkdir(parents=True, exist_ok=True)
        shutil.move(path, keep_dir / path.name)
    else:
        path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # other files of the upload are still there
        path.parent.rmdir()
