"""Background jobs: ingesting uploads off the request path. `create_job_queue` picks the
backend by name: `thread` (in-process, ingesting with the `IngestFiles` it is given) or
`queue` (the `citewise worker` processes on the Redis queue of `Settings.queue`; a
`redis://` spec names that queue too). `services.build` makes the process's one queue."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from citewise.config import Settings
from citewise.errors import CitewiseError, ConfigError
from citewise.jobs.base import FileStatus, IngestFiles, JobQueue, JobStatus, UploadJob
from citewise.registry import FactoryRegistry
from citewise.text.urls import scheme

__all__ = [
    "FileStatus",
    "IngestFiles",
    "JobQueue",
    "JobStatus",
    "UploadJob",
    "create_job_queue",
    "register",
]

QueueFactory = Callable[[str, Settings, IngestFiles], JobQueue]


def uploads_dir(settings: Settings) -> Path:
    """Where each collection's uploads are kept (`<collection>/`) and staged
    (`<collection>/.staging/<job id>/`)."""
    return settings.data_dir / "uploads"


def _thread(_spec: str, settings: Settings, ingest: IngestFiles) -> JobQueue:
    from citewise.jobs.in_process import ThreadJobQueue

    return ThreadJobQueue(ingest, uploads_dir(settings))


def _workers(spec: str, settings: Settings, _ingest: IngestFiles) -> JobQueue:
    from citewise.jobs.queued import WorkerJobQueue

    url = spec if "://" in spec else settings.queue
    if not url:
        raise ConfigError("CITEWISE_JOBS=queue needs CITEWISE_QUEUE=redis://HOST:6379/0")
    return WorkerJobQueue(url)


def _unknown(spec: str, names: list[str]) -> CitewiseError:
    return ConfigError(f"unknown job backend {spec!r}; known: {', '.join(sorted(names))}")


JOB_QUEUES = FactoryRegistry[[str, Settings, IngestFiles], JobQueue](
    "job backend",
    [("thread", _thread), *((s, _workers) for s in ("queue", "redis", "rediss", "unix"))],
)


def register(name: str, factory: QueueFactory) -> None:
    """Adds a backend for the spec `name` or URLs `name://…`; the factory gets the spec,
    the settings and what ingests files in this process."""
    JOB_QUEUES.register(name, factory)


def create_job_queue(spec: str, settings: Settings, ingest: IngestFiles) -> JobQueue:
    """`thread`, or a URL whose scheme a backend registered (e.g. `redis://…`)."""
    name = scheme(spec)
    if name not in JOB_QUEUES:  # the error names the whole spec
        raise _unknown(spec, JOB_QUEUES.names())
    return JOB_QUEUES.create(name, spec, settings, ingest)
