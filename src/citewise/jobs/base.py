"""The job queue protocol and the status record a job reports while it runs."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Literal, Protocol

from citewise.ingest.pipeline import IngestProgress
from citewise.ingest.web.fetch import WebLimits
from citewise.types import IngestReport

JobState = Literal["queued", "running", "done", "failed"]
# per file: waiting, parsing, embedding, then one of the ends
FileStage = Literal["queued", "parse", "embed", "done", "unchanged", "duplicate", "failed"]
FILE_ENDS = ("done", "unchanged", "duplicate", "failed")


@dataclass(frozen=True, slots=True)
class FileStatus:
    name: str
    stage: FileStage = "queued"
    reason: str = ""
    chunks: int = 0
    embedded: int = 0
    to_embed: int = 0
    size: int = 0


@dataclass(frozen=True, slots=True)
class UploadJob:
    """Files staged on disk to ingest into `collection`; plain values, so a queue backend
    can carry it to another process."""

    job_id: str
    owner: str
    collection: str
    folder: str
    files: tuple[tuple[str, str], ...]  # (name, content hash) in `folder`
    keep_dir: str  # where a successfully ingested file is kept (re-ingest reads it)


@dataclass(frozen=True, slots=True)
class JobStatus:
    job_id: str
    owner: str
    collection: str
    state: JobState
    files: tuple[FileStatus, ...]
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    error: str = ""

    def with_file(self, name: str, **changes: object) -> JobStatus:
        files = tuple(replace(f, **changes) if f.name == name else f for f in self.files)  # type: ignore[arg-type]
        return replace(self, files=files, updated_at=time.time())

    def finished(self, *, failed: bool, error: str = "") -> JobStatus:
        state: JobState = "failed" if failed else "done"
        return replace(self, state=state, error=error, updated_at=time.time())

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["files"] = [asdict(f) for f in self.files]
        return data


class IngestFiles(Protocol):
    """What a job backend that ingests in its own process calls (`Ingester.ingest`,
    `Assistant.ingest`)."""

    def __call__(
        self,
        paths: Sequence[str | Path],
        *,
        collection: str,
        progress: IngestProgress | None = None,
        uploads: bool = False,
        web: WebLimits | None = None,
    ) -> IngestReport:
        """`paths` may hold http(s) addresses, fetched within `web` (`ingest.web`)."""
        ...


class JobQueue(Protocol):
    name: str

    def submit(self, job: UploadJob, initial: JobStatus) -> None:
        """Queues the job; `initial` is its status until a worker picks it up."""
        ...

    def status(self, job_id: str) -> JobStatus | None: ...

    def jobs(self, owner: str) -> list[JobStatus]:
        """The owner's jobs, newest first."""
        ...

    def close(self) -> None: ...
