"""The JobQueue contract (`citewise.testing.job_queue_contract`), run against both backends:
in-process threads, and the queue one with a `citewise worker` (in-process, on a real
redis-server: `integration`) ingesting into the same SQLite store."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from citewise.assistant import Assistant
from citewise.config import load_settings
from citewise.embed import create_embedder
from citewise.jobs import uploads_dir
from citewise.jobs.base import JobQueue
from citewise.jobs.in_process import ThreadJobQueue
from citewise.jobs.queued import WorkerJobQueue
from citewise.testing.job_queue_contract import JobQueueContractTests
from citewise.workers.process import Backoff
from redis_server import redis_url  # noqa: F401  (the fixture)


class TestThreadJobQueue(JobQueueContractTests):
    @pytest.fixture
    def job_queue(self, assistant: Assistant) -> Iterator[JobQueue]:
        queue = ThreadJobQueue(assistant.ingest, uploads_dir(assistant.settings))
        yield queue
        queue.close()


@pytest.mark.integration
class TestWorkerJobQueue(JobQueueContractTests):
    @pytest.fixture
    def job_queue(self, assistant: Assistant, redis_url: str) -> Iterator[JobQueue]:  # noqa: F811
        settings = load_settings(
            data_dir=assistant.settings.data_dir, embedder="hashing", queue=redis_url
        )
        stop = threading.Event()
        worker_side = Assistant(settings=settings, embedder=create_embedder("hashing"))
        worker = threading.Thread(
            target=worker_side.ingest_from_queue,
            kwargs={"stop": stop, "backoff": Backoff(retries=0)},
        )
        worker.start()
        queue = WorkerJobQueue(redis_url)
        try:
            yield queue
        finally:
            queue.close()
            stop.set()
            worker.join(timeout=120)
            worker_side.close()
        assert not worker.is_alive()
