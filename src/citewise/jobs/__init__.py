"""Background jobs: ingesting uploads off the request path. `create_job_queue` picks the
backend by name: `thread` (in-process) or `queue` (the `citewise worker` processes on the
Redis queue of `Settings.queue`; a `redis://` spec names that queue too)."""

from __future__ import annotations

from collections.abc import Callable

from citewise.assistant import Assistant
from citewise.errors import ConfigError
from citewise.jobs.base import FileStatus, JobQueue, JobStatus, UploadJob

__all__ = ["FileStatus", "JobQueue", "JobStatus", "UploadJob", "create_job_queue", "register"]

QueueFactory = Callable[[str, Assistant], JobQueue]
_BACKENDS: dict[str, QueueFactory] = {}


def register(scheme: str, factory: QueueFactory) -> None:
    _BACKENDS[scheme] = factory


def create_job_queue(spec: str, services: Assistant) -> JobQueue:
    """`thread`, or a URL whose scheme a backend registered (e.g. `redis://…`)."""
    if not _BACKENDS:
        _register_builtins()
    scheme = spec.split("://", 1)[0] if "://" in spec else spec
    factory = _BACKENDS.get(scheme)
    if factory is None:
        raise ConfigError(f"unknown job backend {spec!r}; known: {', '.join(sorted(_BACKENDS))}")
    return factory(spec, services)


def _register_builtins() -> None:
    def thread(_spec: str, services: Assistant) -> JobQueue:
        from citewise.jobs.in_process import ThreadJobQueue

        return ThreadJobQueue(services)

    def workers(spec: str, services: Assistant) -> JobQueue:
        from citewise.jobs.queued import WorkerJobQueue

        url = spec if "://" in spec else services.settings.queue
        if not url:
            raise ConfigError("CITEWISE_JOBS=queue needs CITEWISE_QUEUE=redis://HOST:6379/0")
        return WorkerJobQueue(url)

    register("thread", thread)
    for scheme in ("queue", "redis", "rediss", "unix"):
        register(scheme, workers)
