"""Running one upload job: each staged file ingested in turn with its stages reported
(parse, then embed), the file kept for re-ingest when it is in, removed when it fails."""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from citewise.jobs.base import JobStatus, UploadJob
from citewise.services import Services

log = logging.getLogger(__name__)
Report = Callable[[Callable[[JobStatus], JobStatus]], None]


class _FileProgress:
    """Turns the ingest pipeline's callbacks into the file's stage."""

    def __init__(self, name: str, report: Report) -> None:
        self.name = name
        self.report = report

    def files(self, done: int, total: int, source: str) -> None:
        self.report(lambda s: s.with_file(self.name, stage="embed"))

    def embedded(self, done: int, total: int) -> None:
        self.report(lambda s: s.with_file(self.name, embedded=done, to_embed=total))


def run_upload(job: UploadJob, services: Services, report: Report) -> None:
    """Ingests the job's files; `report` applies a change to the job's status record."""
    report(lambda s: replace(s, state="running", updated_at=time.time()))
    folder = Path(job.folder)
    failed = False
    try:
        for name, _hash in job.files:
            report(partial(JobStatus.with_file, name=name, stage="parse"))
            path = folder / name
            try:
                outcome = services.ingest(
                    [path], collection=job.collection, progress=_FileProgress(name, report)
                ).outcomes[0]
            except Exception as exc:  # one file's failure is its status, not the job's end
                log.exception("upload %s: ingest of %s failed", job.job_id, name)
                outcome = None
                reason = f"{type(exc).__name__}: {exc}"
            if outcome is not None and outcome.status in ("ingested", "replaced", "unchanged"):
                keep = Path(job.keep_dir)
                keep.mkdir(parents=True, exist_ok=True)
                shutil.move(path, keep / name)
                stage = "unchanged" if outcome.status == "unchanged" else "done"
                report(partial(JobStatus.with_file, name=name, stage=stage, chunks=outcome.chunks))
                continue
            failed = True
            path.unlink(missing_ok=True)
            why = outcome.reason if outcome is not None else reason
            report(partial(JobStatus.with_file, name=name, stage="failed", reason=why))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    report(partial(JobStatus.finished, failed=failed))
