"""The `JobQueue` contract as a pytest mixin: a backend's test class subclasses
`JobQueueContractTests` and provides a `job_queue` fixture: the queue under test, with
whatever runs its jobs already running, ingesting into the store of the `assistant` fixture
(the mixin's: a SQLite store under `tmp_path` with the hashing embedder; override it to
test on another store).

    class TestMyQueue(JobQueueContractTests):
        @pytest.fixture
        def job_queue(self, assistant: Assistant) -> Iterator[JobQueue]:
            queue = MyQueue(assistant.settings, assistant.ingest)
            yield queue
            queue.close()
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from citewise.assistant import Assistant
from citewise.jobs.base import FILE_ENDS, FileStatus, JobQueue, JobState, JobStatus, UploadJob

COLLECTION = "default"
FERRY = b"# Ferry\n\nThe island ferry leaves the north pier at seven each morning.\n"
BOATS = b"Boats\n\nThe harbour keeps twelve rowing boats for hire in summer.\n"
BLANK = b"   \n\n   \n"
FINISH_S = 120
# the order states and stages move in; a status may skip some, never go back
STATE_ORDER = {"queued": 0, "running": 1, "done": 2, "failed": 2}
STAGE_ORDER = {"queued": 0, "parse": 1, "embed": 2, **dict.fromkeys(FILE_ENDS, 3)}


@dataclass(frozen=True)
class Staged:
    job: UploadJob
    initial: JobStatus

    @property
    def folder(self) -> Path:
        return Path(self.job.folder)

    @property
    def keep_dir(self) -> Path:
        return Path(self.job.keep_dir)


def stage(
    root: Path,
    job_id: str,
    files: Mapping[str, bytes],
    *,
    owner: str = "u1",
    created_at: float | None = None,
    ended: tuple[FileStatus, ...] = (),
) -> Staged:
    """An upload job with `files` written to its staging folder under `root`; `ended` are
    files the submitter already settled (a duplicate), listed but not ingested."""
    folder = root / "staging" / job_id
    folder.mkdir(parents=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    job = UploadJob(job_id, owner, COLLECTION, str(folder), tuple((n, "") for n in files),
                    str(root / "kept"))  # fmt: skip
    state: JobState = "queued" if files else "done"
    statuses = tuple(FileStatus(n, size=len(d)) for n, d in files.items()) + ended
    at = time.time() if created_at is None else created_at
    initial = JobStatus(job_id, owner, COLLECTION, state, statuses, created_at=at, updated_at=at)
    return Staged(job, initial)


def follow(queue: JobQueue, job_id: str, timeout: float = FINISH_S) -> list[JobStatus]:
    """Every status read until the job ends (polled; intermediate ones may be missed)."""
    seen: list[JobStatus] = []
    deadline = time.monotonic() + timeout
    while True:
        status = queue.status(job_id)
        assert status is not None, f"job {job_id} has no status"
        if not seen or status != seen[-1]:
            seen.append(status)
        if status.state in ("done", "failed"):
            return seen
        assert time.monotonic() < deadline, f"job {job_id} did not end: {status}"
        time.sleep(0.02)


def _stages(status: JobStatus) -> dict[str, str]:
    return {f.name: f.stage for f in status.files}


class JobQueueContractTests:
    """What every job queue backend promises; needs a `job_queue` fixture."""

    @pytest.fixture
    def assistant(self, tmp_path: Path) -> Iterator[Assistant]:
        assistant = Assistant(tmp_path / "data", embedder="hashing")
        yield assistant
        assistant.close()

    def run(self, queue: JobQueue, staged: Staged) -> JobStatus:
        queue.submit(staged.job, staged.initial)
        return follow(queue, staged.job.job_id)[-1]

    def test_an_unknown_job_has_no_status(self, job_queue: JobQueue) -> None:
        assert job_queue.status("no-such-job") is None

    def test_a_submitted_job_has_a_status_at_once(
        self, job_queue: JobQueue, tmp_path: Path
    ) -> None:
        staged = stage(tmp_path, "j1", {"ferry.md": FERRY})
        job_queue.submit(staged.job, staged.initial)
        status = job_queue.status("j1")
        assert status is not None
        assert (status.job_id, status.owner, status.collection) == ("j1", "u1", COLLECTION)
        assert [f.name for f in status.files] == ["ferry.md"]
        follow(job_queue, "j1")  # nothing left running when the queue closes

    def test_each_file_ends_done_stored_and_kept_for_reingest(
        self, job_queue: JobQueue, assistant: Assistant, tmp_path: Path
    ) -> None:
        staged = stage(tmp_path, "j1", {"ferry.md": FERRY, "boats.txt": BOATS})
        status = self.run(job_queue, staged)
        assert status.state == "done" and status.error == ""
        assert _stages(status) == {"ferry.md": "done", "boats.txt": "done"}
        assert all(f.chunks >= 1 and f.reason == "" for f in status.files)
        assert sorted(d.source for d in assistant.documents(collection=COLLECTION)) == [
            "boats.txt", "ferry.md"
        ]  # fmt: skip
        assert (staged.keep_dir / "ferry.md").read_bytes() == FERRY
        assert not staged.folder.exists()

    def test_a_failing_file_fails_the_job_with_its_reason_and_the_others_go_in(
        self, job_queue: JobQueue, assistant: Assistant, tmp_path: Path
    ) -> None:
        staged = stage(tmp_path, "j1", {"ferry.md": FERRY, "blank.md": BLANK})
        status = self.run(job_queue, staged)
        assert status.state == "failed"
        files = {f.name: f for f in status.files}
        assert files["ferry.md"].stage == "done"
        assert files["blank.md"].stage == "failed" and files["blank.md"].reason
        assert [d.source for d in assistant.documents(collection=COLLECTION)] == ["ferry.md"]
        assert not (staged.keep_dir / "blank.md").exists()
        assert not staged.folder.exists()

    def test_states_and_stages_only_move_forward(self, job_queue: JobQueue, tmp_path: Path) -> None:
        files = {f"note{i}.md": FERRY.replace(b"seven", f"{i} past seven".encode())
                 for i in range(4)}  # fmt: skip
        staged = stage(tmp_path, "j1", files)
        job_queue.submit(staged.job, staged.initial)
        seen = follow(job_queue, "j1")
        states = [STATE_ORDER[s.state] for s in seen]
        assert states == sorted(states)
        for name in files:
            stages = [STAGE_ORDER[_stages(s)[name]] for s in seen]
            assert stages == sorted(stages), (name, [_stages(s)[name] for s in seen])
        assert seen[-1].state == "done"

    def test_the_same_content_again_ends_unchanged(
        self, job_queue: JobQueue, assistant: Assistant, tmp_path: Path
    ) -> None:
        assert self.run(job_queue, stage(tmp_path, "j1", {"ferry.md": FERRY})).state == "done"
        again = self.run(job_queue, stage(tmp_path, "j2", {"ferry.md": FERRY}))
        assert again.state == "done"
        assert _stages(again) == {"ferry.md": "unchanged"}
        assert len(assistant.documents(collection=COLLECTION)) == 1

    def test_files_the_submitter_settled_keep_their_stage(
        self, job_queue: JobQueue, tmp_path: Path
    ) -> None:
        duplicate = FileStatus("copy.md", "duplicate", "the same content is already in")
        only_settled = self.run(job_queue, stage(tmp_path, "j1", {}, ended=(duplicate,)))
        assert only_settled.state == "done"
        assert only_settled.files == (duplicate,)
        mixed = self.run(job_queue, stage(tmp_path, "j2", {"ferry.md": FERRY}, ended=(duplicate,)))
        assert mixed.state == "done"
        assert _stages(mixed) == {"ferry.md": "done", "copy.md": "duplicate"}
        assert mixed.files[1] == duplicate

    def test_jobs_lists_an_owners_jobs_newest_first(
        self, job_queue: JobQueue, tmp_path: Path
    ) -> None:
        older = stage(tmp_path, "j-old", {"ferry.md": FERRY}, created_at=1_000.0)
        newer = stage(tmp_path, "j-new", {"boats.txt": BOATS}, created_at=2_000.0)
        other = stage(tmp_path, "j-other", {"a.md": BOATS}, owner="u2", created_at=3_000.0)
        for staged in (older, newer, other):
            self.run(job_queue, staged)
        assert [s.job_id for s in job_queue.jobs("u1")] == ["j-new", "j-old"]
        assert [s.job_id for s in job_queue.jobs("u2")] == ["j-other"]
        assert job_queue.jobs("nobody") == []
