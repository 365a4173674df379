"""Web pages into a collection from the API and the web UI: a page, a sitemap's pages or a
same-site crawl, fetched and ingested off the request, as a job whose record the job queue
keeps (`GET /jobs/{id}`, its events): a crawl of many pages no longer holds the request
open. The same code as `citewise ingest https://…` does the work (robots.txt, size and time
limits, the SSRF guard). Whether private addresses may be fetched is the server's setting
(`CITEWISE_WEB_ALLOW_PRIVATE`), never the caller's; the page limit is at most the server's."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from citewise.api.deps import AssistantDep, JobsDep, writable
from citewise.api.security import Writer
from citewise.api.uploads import new_job_id
from citewise.assistant import Assistant
from citewise.errors import InputError
from citewise.ingest.web.fetch import WebLimits
from citewise.ingest.web.pages import is_web_address, web_limits
from citewise.jobs import FileStatus, JobQueue, JobStatus, UploadJob
from citewise.jobs.base import FileStage
from citewise.types import FileOutcome

router = APIRouter(tags=["documents"])
log = logging.getLogger(__name__)
# one crawl at a time per server: each already uses the ingest's cores and the network
_CRAWLS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citewise-web")
_ADDED: dict[str, FileStage] = {"ingested": "done", "replaced": "done", "unchanged": "unchanged"}


class WebIngest(BaseModel):
    url: str = Field(max_length=2000, description="an http(s) address: a page or a sitemap")
    crawl: bool = Field(False, description="follow the page's links within the same site")
    max_pages: int | None = Field(None, ge=1, description="at most the server's page limit")


@router.post("/documents/web", status_code=202)
def ingest_web(
    body: WebIngest,
    principal: Writer,
    assistant: AssistantDep,
    jobs: JobsDep,
    response: Response,
    collection: str | None = None,
) -> dict[str, object]:
    """Queues the fetch of the address (and, with `crawl`, of the pages it links to on its
    site) and their ingest; answers the job (202, `Location: /jobs/{id}`), whose record
    lists each page's outcome when it is done, refusals with their reason."""
    target = writable(principal, collection)
    url = body.url.strip()
    if not is_web_address(url):
        raise InputError(f"not a web address: {url!r} (it must start with http:// or https://)")
    limit = assistant.settings.web_max_pages
    pages = min(body.max_pages or limit, limit)
    web = web_limits(assistant.settings, max_pages=pages, follow=body.crawl)
    job_id = new_job_id()
    initial = JobStatus(job_id, principal.user_id, target, "queued", (FileStatus(url),))
    record = JobRecord(jobs, UploadJob(job_id, principal.user_id, target, "", (), ""), initial)
    _CRAWLS.submit(run_web_job, assistant, url, web, record)
    response.headers["Location"] = f"/jobs/{job_id}"
    return initial.to_json()


class JobRecord:
    """A web job's status, kept by the job queue: `submit` of a job without files stores its
    record and queues nothing, so the queue's own readers (`/jobs`) show it."""

    def __init__(self, jobs: JobQueue, job: UploadJob, initial: JobStatus) -> None:
        self._jobs, self._job, self._status = jobs, job, initial
        self._lock = threading.Lock()
        self.collection = job.collection
        jobs.submit(job, initial)

    def change(self, how: Callable[[JobStatus], JobStatus]) -> None:
        with self._lock:
            self._status = how(self._status)
            self._jobs.submit(self._job, self._status)


class _Progress:
    """The ingest's callbacks as the address's stage: reading, then embedding."""

    def __init__(self, url: str, record: JobRecord) -> None:
        self.url, self.record = url, record

    def files(self, done: int, total: int, source: str) -> None:
        self.record.change(lambda s: s.with_file(self.url, stage="embed"))

    def embedded(self, done: int, total: int) -> None:
        self.record.change(lambda s: s.with_file(self.url, embedded=done, to_embed=total))


def run_web_job(assistant: Assistant, url: str, web: WebLimits, record: JobRecord) -> None:
    """Fetches and ingests; the record ends with one entry per page (or refusal)."""
    record.change(lambda s: replace(s.with_file(url, stage="parse"), state="running"))
    try:
        report = assistant.ingest(
            [url], collection=record.collection, web=web, progress=_Progress(url, record)
        )
    except Exception as exc:  # the job's record says so; the server goes on
        log.exception("web job for %s failed", url)
        error = f"{type(exc).__name__}: {exc}"
        record.change(lambda s: s.with_file(url, stage="failed", reason=error).finished(
            failed=True, error=error))  # fmt: skip
        return
    files = tuple(page_status(o) for o in report.outcomes)
    added = any(f.stage in ("done", "unchanged") for f in files)
    record.change(lambda s: replace(s, files=files or s.files).finished(failed=not added))


def page_status(outcome: FileOutcome) -> FileStatus:
    """A page's outcome as a job's file: added (done, unchanged) or not, with the reason."""
    stage: FileStage = _ADDED.get(outcome.status, "failed")
    reason = "" if stage != "failed" else (outcome.reason or outcome.status)
    return FileStatus(outcome.source, stage, reason, outcome.chunks)


def wait_for_crawls(timeout_s: float = 30.0) -> None:
    """Blocks until the crawls queued so far are done (tests, shutdown)."""
    _CRAWLS.submit(time.sleep, 0).result(timeout=timeout_s)
