"""Admin only: `POST /admin/backup` answers with a backup of the data directory, taken
while the server keeps answering (`citewise backup` over HTTP; docs/backup.md)."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.background import BackgroundTask

from citewise.api.deps import AssistantDep
from citewise.api.security import Admin

router = APIRouter(prefix="/admin", tags=["admin"])


@router.post("/backup", response_class=FileResponse)
def backup(_: Admin, assistant: AssistantDep) -> FileResponse:
    """The data directory as one zip (`citewise restore FILE` unpacks it); built in a
    temporary folder, removed once sent."""
    folder = Path(tempfile.mkdtemp(prefix="citewise-backup-"))
    out = folder / f"citewise-backup-{time.strftime('%Y%m%d-%H%M%S')}.zip"
    try:
        report = assistant.backup(out)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return FileResponse(
        out,
        media_type="application/zip",
        filename=out.name,
        headers={"X-Citewise-Databases": ",".join(report.databases)},
        background=BackgroundTask(shutil.rmtree, folder, ignore_errors=True),
    )
