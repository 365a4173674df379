"""The in-process job backend: one worker thread runs upload jobs in order; statuses live
in memory (they are lost with the process, the ingested documents are not)."""

from __future__ import annotations

import logging
import queue
import shutil
import threading
from collections.abc import Callable
from functools import partial

from citewise.jobs.base import JobStatus, UploadJob
from citewise.jobs.uploads import run_upload
from citewise.services import Services

log = logging.getLogger(__name__)
KEEP_FINISHED = 1000


class ThreadJobQueue:
    name = "thread"

    def __init__(self, services: Services) -> None:
        self._services = services
        # jobs of this backend die with their process: what an earlier one staged is stale
        for stale in (services.settings.data_dir / "uploads").glob("*/.staging/*"):
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
                run_upload(job, self._services, report)
            except Exception as exc:  # the job's record says so; the worker goes on
                log.exception("job %s failed", job.job_id)
                error = f"{type(exc).__name__}: {exc}"
                report(partial(JobStatus.finished, failed=True, error=error))
