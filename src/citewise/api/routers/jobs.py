"""Upload jobs: their status, and their progress as server-sent events."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import anyio
from fastapi import APIRouter, Request
from fastapi.sse import EventSourceResponse

from citewise.api.deps import JobsDep
from citewise.api.security import Reader
from citewise.api.sse import SSE_DOC, STREAM_HEADERS, encode
from citewise.auth.models import Principal
from citewise.errors import NotFoundError
from citewise.jobs import JobQueue, JobStatus

router = APIRouter(prefix="/jobs", tags=["jobs"])
POLL_SECONDS = 0.2


def _own_job(jobs: JobQueue, job_id: str, principal: Principal) -> JobStatus:
    status = jobs.status(job_id)
    if status is None or (status.owner != principal.user_id and not principal.is_admin):
        raise NotFoundError(f"no job {job_id!r}")
    return status


@router.get("")
def list_jobs(principal: Reader, jobs: JobsDep) -> dict[str, object]:
    return {"jobs": [s.to_json() for s in jobs.jobs(principal.user_id)]}


@router.get("/{job_id}")
def get_job(job_id: str, principal: Reader, jobs: JobsDep) -> dict[str, object]:
    """The job's state and each file's stage: queued, parse, embed, then done, unchanged,
    duplicate or failed (with the reason)."""
    return _own_job(jobs, job_id, principal).to_json()


@router.get("/{job_id}/events", responses=SSE_DOC)
async def job_events(
    job_id: str, request: Request, principal: Reader, jobs: JobsDep
) -> EventSourceResponse:
    """`progress` events (the job record) whenever it changes, then `done`."""
    _own_job(jobs, job_id, principal)

    async def body() -> AsyncIterator[bytes]:
        last = ""
        while True:
            # a queue backend reads the status from Redis: off the event loop
            status = await anyio.to_thread.run_sync(jobs.status, job_id)
            if status is None:
                return
            data = status.to_json()
            text = json.dumps(data)
            if text != last:
                last = text
                yield encode("progress", data)
            if status.state in ("done", "failed"):
                yield encode("done", data)
                return
            await anyio.sleep(POLL_SECONDS)

    return EventSourceResponse(body(), headers=STREAM_HEADERS)
