"""The in-process job backend: files staged on disk become documents, with each file's
stage on the job's record; failures stay with their file and nothing half-done is shown."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.assistant import Assistant
from citewise.jobs import JobStatus, UploadJob, create_job_queue
from citewise.jobs.base import FileStatus


@pytest.fixture
def assistant(tmp_path: Path) -> Iterator[Assistant]:
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        yield a


def submit(assistant: Assistant, tmp_path: Path, job_id: str, files: dict[str, bytes]) -> JobStatus:
    queue = create_job_queue("thread", assistant.settings, assistant.ingest)
    folder = tmp_path / "staging" / job_id
    folder.mkdir(parents=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    job = UploadJob(job_id, "u1", "default", str(folder), tuple((n, "") for n in files),
                    str(tmp_path / "kept"))  # fmt: skip
    queue.submit(job, JobStatus(job_id, "u1", "default", "queued",
                                tuple(FileStatus(n) for n in files)))  # fmt: skip
    deadline = time.monotonic() + 60
    while (status := queue.status(job_id)) is not None and status.state not in ("done", "failed"):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    queue.close()
    assert status is not None
    return status


def test_each_file_ends_done_and_is_kept_for_reingest(assistant: Assistant, tmp_path: Path) -> None:
    status = submit(assistant, tmp_path, "j1", {
        "a.md": b"# A\n\nThe first file talks about apples.\n",
        "b.txt": b"B\n\nThe second file talks about boats.\n",
    })  # fmt: skip
    assert status.state == "done"
    assert [(f.name, f.stage) for f in status.files] == [("a.md", "done"), ("b.txt", "done")]
    assert all(f.chunks >= 1 for f in status.files)
    assert sorted(p.name for p in (tmp_path / "kept").iterdir()) == ["a.md", "b.txt"]
    assert not (tmp_path / "staging" / "j1").exists()
    assert [d.source for d in assistant.documents()] == ["a.md", "b.txt"]


def test_a_failed_replacement_keeps_the_old_version_whole(
    assistant: Assistant, tmp_path: Path
) -> None:
    v1 = b"Notes\n\nThe meeting is on Friday.\n"
    assert submit(assistant, tmp_path, "j1", {"notes.txt": v1}).state == "done"
    before = assistant.document("notes.txt")
    status = submit(assistant, tmp_path, "j2", {"notes.txt": b" \n \n"})
    assert status.state == "failed"
    [file] = status.files
    assert file.stage == "failed" and file.reason.startswith(("empty", "no text"))
    after = assistant.document("notes.txt")
    assert after.content_hash == before.content_hash  # the store still holds v1 ...
    assert (tmp_path / "kept" / "notes.txt").read_bytes() == v1  # ... and so does the kept file


def test_a_new_queue_clears_what_an_earlier_process_staged(assistant: Assistant) -> None:
    stale = assistant.settings.data_dir / "uploads" / "default" / ".staging" / "old-job"
    stale.mkdir(parents=True)
    (stale / "half.txt").write_text("half")
    create_job_queue("thread", assistant.settings, assistant.ingest).close()
    assert not stale.exists()
