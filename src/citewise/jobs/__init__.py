"""Background jobs: ingesting uploads off the request path. `create_job_queue` picks the
backend by name (`thread` in-process; a queue backend registers itself here)."""

from __future__ import annotations

from collections.abc import Callable

from citewise.errors import ConfigError
from citewise.jobs.base import FileStatus, JobQueue, JobStatus, UploadJob
from citewise.services import Services

__all__ = ["FileStatus", "JobQueue", "JobStatus", "UploadJob", "create_job_queue", "register"]

QueueFactory = Callable[[str, Services], JobQueue]
_BACKENDS: dict[str, QueueFactory] = {}


def register(scheme: str, factory: QueueFactory) -> None:
    _BACKENDS[scheme] = factory


def create_job_queue(spec: str, services: Services) -> JobQueue:
    """`thread`, or a URL whose scheme a backend registered (e.g. `redis://…`)."""
    if not _BACKENDS:
        from citewise.jobs.threads import ThreadJobQueue

        register("thread", lambda _spec, s: ThreadJobQueue(s))
    scheme = spec.split("://", 1)[0] if "://" in spec else spec
    factory = _BACKENDS.get(scheme)
    if factory is None:
        raise ConfigError(f"unknown job backend {spec!r}; known: {', '.join(sorted(_BACKENDS))}")
    return factory(spec, services)
