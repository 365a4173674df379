"""Background jobs: ingesting uploads off the request path. `create_job_queue` picks the
backend by name: `thread` (in-process) or `queue` (the `citewise worker` processes on the
Redis queue of `Settings.queue`; a `redis://` spec names that queue too)."""

from __future__ import annotations

from collections.abc import Callable

from citewise.assistant import Assistant
from citewise.errors import CitewiseError, ConfigError
from citewise.jobs.base import FileStatus, JobQueue, JobStatus, UploadJob
from citewise.registry import FactoryRegistry
from citewise.text.urls import scheme

__all__ = ["FileStatus", "JobQueue", "JobStatus", "UploadJob", "create_job_queue", "register"]

QueueFactory = Callable[[str, Assistant], JobQueue]


def _thread(_spec: str, assistant: Assistant) -> JobQueue:
    from citewise.jobs.in_process import ThreadJobQueue

    return ThreadJobQueue(assistant)


def _workers(spec: str, assistant: Assistant) -> JobQueue:
    from citewise.jobs.queued import WorkerJobQueue

    url = spec if "://" in spec else assistant.settings.queue
    if not url:
        raise ConfigError("CITEWISE_JOBS=queue needs CITEWISE_QUEUE=redis://HOST:6379/0")
    return WorkerJobQueue(url)


def _unknown(spec: str, names: list[str]) -> CitewiseError:
    return ConfigError(f"unknown job backend {spec!r}; known: {', '.join(sorted(names))}")


JOB_QUEUES = FactoryRegistry[[str, Assistant], JobQueue](
    "job backend",
    [("thread", _thread), *((s, _workers) for s in ("queue", "redis", "rediss", "unix"))],
)


def register(name: str, factory: QueueFactory) -> None:
    """Adds a backend for the spec `name` or URLs `name://…`."""
    JOB_QUEUES.register(name, factory)


def create_job_queue(spec: str, assistant: Assistant) -> JobQueue:
    """`thread`, or a URL whose scheme a backend registered (e.g. `redis://…`)."""
    name = scheme(spec)
    if name not in JOB_QUEUES:  # the error names the whole spec
        raise _unknown(spec, JOB_QUEUES.names())
    return JOB_QUEUES.create(name, spec, assistant)
