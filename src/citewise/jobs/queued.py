"""The queue job backend: each file of an upload becomes one job for the `citewise worker`
processes (dramatiq on Redis); the job's status is read back from what the workers record.

Redis keys besides the workers' own (workers/queue.py, the upload's job id is the batch):
`citewise:job:<id>` (the status at submit, JSON) and `citewise:jobs-of:<owner>` (a sorted
set: job ids by creation time). The staged files must be readable by the workers at the
same path: one machine, or a volume every machine mounts at the same place.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from citewise.jobs.base import FILE_ENDS, FileStage, FileStatus, JobState, JobStatus, UploadJob
from citewise.workers.file_job import FileJob
from citewise.workers.queue import (
    OUTCOMES_TTL_S,
    IngestQueue,
    outcomes_key,
    started_key,
)

KEEP_LISTED = 1000  # an owner's jobs listed, newest first


def job_key(job_id: str) -> str:
    return f"citewise:job:{job_id}"


def owner_key(owner: str) -> str:
    return f"citewise:jobs-of:{owner}"


def _stage(outcome: dict[str, Any]) -> FileStage:
    status = outcome.get("status")
    if status in ("ingested", "replaced"):
        return "done"
    return "unchanged" if status == "unchanged" else "failed"


def merge_status(
    initial: JobStatus, outcomes: list[dict[str, Any]], started: set[str]
) -> JobStatus:
    """The job's status from its status at submit, the outcomes the workers recorded (one
    per file done for good) and the files a worker has begun."""
    by_source = {o["source"]: o for o in outcomes}
    files: list[FileStatus] = []
    for f in initial.files:
        if f.stage in FILE_ENDS:
            files.append(f)
        elif (outcome := by_source.get(f.name)) is not None:
            stage = _stage(outcome)
            reason = str(outcome.get("reason") or "") if stage == "failed" else ""
            files.append(replace(f, stage=stage, reason=reason, chunks=int(outcome["chunks"])))
        else:
            files.append(replace(f, stage="parse" if f.name in started else "queued"))
    if initial.state in ("done", "failed") or all(f.stage in FILE_ENDS for f in files):
        failed = any(f.stage == "failed" for f in files) or initial.state == "failed"
        state: JobState = "failed" if failed else "done"
    else:
        begun = any(f.stage != "queued" for f in files if f.stage not in ("duplicate",))
        state = "running" if begun else "queued"
    return replace(initial, state=state, files=tuple(files))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _decode(raw: bytes) -> JobStatus:
    data = json.loads(raw)
    files = tuple(FileStatus(**f) for f in data.pop("files"))
    return JobStatus(files=files, **data)


class WorkerJobQueue:
    name = "queue"

    def __init__(self, url: str) -> None:
        self._queue = IngestQueue(url)
        self._client = self._queue.client

    def submit(self, job: UploadJob, initial: JobStatus) -> None:
        pipe = self._client.pipeline()
        pipe.set(job_key(job.job_id), json.dumps(initial.to_json()), ex=OUTCOMES_TTL_S)
        pipe.zadd(owner_key(job.owner), {job.job_id: initial.created_at})
        pipe.expire(owner_key(job.owner), OUTCOMES_TTL_S)
        pipe.execute()
        folder = Path(job.folder).resolve()
        for name, _hash in job.files:
            file_job = FileJob(str(folder / name), name, job.collection)
            self._queue.send(file_job, job.job_id, keep_dir=str(Path(job.keep_dir).resolve()))

    def status(self, job_id: str) -> JobStatus | None:
        pipe = self._client.pipeline()  # one round trip
        pipe.get(job_key(job_id))
        pipe.lrange(outcomes_key(job_id), 0, -1)
        pipe.hkeys(started_key(job_id))
        raw, outcomes, started = pipe.execute()
        if raw is None:
            return None
        return merge_status(
            _decode(raw), [json.loads(o) for o in outcomes], {_text(s) for s in started}
        )

    def jobs(self, owner: str) -> list[JobStatus]:
        ids = cast("list[bytes]", self._client.zrevrange(owner_key(owner), 0, KEEP_LISTED - 1))
        found = (self.status(_text(i)) for i in ids)
        return [s for s in found if s is not None]

    def close(self) -> None:
        self._queue.close()
