"""The in-process job backend: one worker thread runs upload jobs in order, each staged file
ingested in turn with its stages reported (parse, then embed), kept for re-ingest when it is
in, removed when it fails. Statuses live in memory (they are lost with the process, the
ingested documents are not)."""

from __future__ import annotations

import logging
import queue
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from citewise.jobs.base import IngestFiles, JobStatus, UploadJob
from citewise.workers.keep import keep_upload

log = logging.getLogger(__name__)
KEEP_FINISHED = 1000
Report = Callable[[Callable[[JobStatus], JobStatus]], None]


class ThreadJobQueue:
    name = "thread"

    def __init__(self, ingest: IngestFiles, uploads: Path) -> None:
        """`uploads`: the folder of each collection's uploads (`<collection>/.staging/<job>`
        holds a job's files until they are in)."""
        self._ingest = ingest
        # jobs of this backend die with their process: what an earlier one staged is stale
        for stale in uploads.glob("*/.staging/*"):
            shutil.rmtree(stale, ignore_errors=True)
        self._queue: queue.Queue[UploadJob | None] = queue.Queue()
        self._statuses: dict[str, JobStatus] = {}
        self._lock = threading.Lock()
        self._worker = threading.Thread(target=self._run, name="citewise-jobs", daemon=True)
        self._worker.start()

    def submit(self, job: UploadJob, initial: JobStatus) -> None:
        with self._lock:
            self._statuses[job.job_id] = initial
            if len(self._statuses) > KEEP_FINISHED:
                oldest = min(self._statuses.values(), key=lambda s: s.updated_at)
                if oldest.state in ("done", "failed"):
                    del self._statuses[oldest.job_id]
        if job.files:
            self._queue.put(job)

    def status(self, job_id: str) -> JobStatus | None:
        with self._lock:
            return self._statuses.get(job_id)

    def jobs(self, owner: str) -> list[JobStatus]:
        with self._lock:
            mine = [s for s in self._statuses.values() if s.owner == owner]
        return sorted(mine, key=lambda s: s.created_at, reverse=True)

    def close(self) -> None:
        self._queue.put(None)
        self._worker.join(timeout=30)

    def _update(self, job_id: str) -> Callable[[Callable[[JobStatus], JobStatus]], None]:
        def report(change: Callable[[JobStatus], JobStatus]) -> None:
            with self._lock:
                self._statuses[job_id] = change(self._statuses[job_id])

        return report

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            report = self._update(job.job_id)
            try:
                run_upload(job, self._ingest, report)
            except Exception as exc:  # the job's record says so; the worker goes on
                log.exception("job %s failed", job.job_id)
                error = f"{type(exc).__name__}: {exc}"
                report(partial(JobStatus.finished, failed=True, error=error))


class _FileProgress:
    """Turns the ingest pipeline's callbacks into the file's stage."""

    def __init__(self, name: str, report: Report) -> None:
        self.name = name
        self.report = report

    def files(self, done: int, total: int, source: str) -> None:
        self.report(lambda s: s.with_file(self.name, stage="embed"))

    def embedded(self, done: int, total: int) -> None:
        self.report(lambda s: s.with_file(self.name, embedded=done, to_embed=total))


def run_upload(job: UploadJob, ingest: IngestFiles, report: Report) -> None:
    """Ingests the job's files; `report` applies a change to the job's status record."""
    report(lambda s: replace(s, state="running", updated_at=time.time()))
    folder = Path(job.folder)
    failed = False
    try:
        for name, _hash in job.files:
            report(partial(JobStatus.with_file, name=name, stage="parse"))
            path = folder / name
            try:
                outcome = ingest(
                    [path], collection=job.collection, progress=_FileProgress(name, report),
                    uploads=True,
                ).outcomes[0]  # fmt: skip
            except Exception as exc:  # one file's failure is its status, not the job's end
                log.exception("upload %s: ingest of %s failed", job.job_id, name)
                outcome = None
                reason = f"{type(exc).__name__}: {exc}"
            kept = outcome is not None and outcome.status in ("ingested", "replaced", "unchanged")
            keep_upload(path, Path(job.keep_dir), keep=kept)
            if outcome is not None and kept:
                stage = "unchanged" if outcome.status == "unchanged" else "done"
                report(partial(JobStatus.with_file, name=name, stage=stage, chunks=outcome.chunks))
                continue
            failed = True
            why = outcome.reason if outcome is not None else reason
            report(partial(JobStatus.with_file, name=name, stage="failed", reason=why))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    report(partial(JobStatus.finished, failed=failed))
