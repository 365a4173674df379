"""The queue backend's job status: the status at submit merged with what the workers
recorded (files begun, outcomes done for good)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.assistant import Assistant
from citewise.config import load_settings
from citewise.errors import ConfigError
from citewise.jobs import create_job_queue
from citewise.jobs.base import FileStatus, JobStatus
from citewise.jobs.queued import merge_status

INITIAL = JobStatus("j1", "u1", "default", "queued", (
    FileStatus("a.md"), FileStatus("b.md"), FileStatus("c.md", "duplicate", "same as x.md"),
))  # fmt: skip


def _stages(status: JobStatus) -> list[tuple[str, str]]:
    return [(f.name, f.stage) for f in status.files]


def test_nothing_begun_is_queued_and_a_begun_file_is_parsing() -> None:
    assert merge_status(INITIAL, [], set()).state == "queued"
    running = merge_status(INITIAL, [], {"a.md"})
    assert running.state == "running"
    assert _stages(running) == [("a.md", "parse"), ("b.md", "queued"), ("c.md", "duplicate")]


def test_outcomes_end_their_files_and_the_job_with_the_failure_and_reason() -> None:
    outcomes = [
        {"source": "a.md", "status": "ingested", "reason": "", "chunks": 3},
        {"source": "b.md", "status": "failed", "reason": "empty document", "chunks": 0},
    ]
    done = merge_status(INITIAL, outcomes, {"a.md", "b.md"})
    assert done.state == "failed"
    assert _stages(done) == [("a.md", "done"), ("b.md", "failed"), ("c.md", "duplicate")]
    assert done.files[0].chunks == 3 and done.files[1].reason == "empty document"


def test_an_unchanged_file_ends_the_job_done() -> None:
    outcomes = [{"source": n, "status": "unchanged", "reason": "", "chunks": 1}
                for n in ("a.md", "b.md")]  # fmt: skip
    assert merge_status(INITIAL, outcomes, set()).state == "done"


def test_a_redis_jobs_url_is_the_queue_and_two_different_urls_are_refused() -> None:
    assert load_settings(jobs="redis://h:6379/1").queue == "redis://h:6379/1"
    with pytest.raises(ConfigError, match="different queues"):
        load_settings(jobs="redis://h:6379/1", queue="redis://h:6379/2")


def test_the_queue_backend_without_a_queue_url_is_a_config_error(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, embedder="hashing", jobs="queue")
    with (
        Assistant(settings=settings) as assistant,
        pytest.raises(ConfigError, match="CITEWISE_QUEUE"),
    ):
        create_job_queue("queue", assistant.settings, assistant.ingest)
