"""The ingestion queue on Redis (dramatiq): sending file jobs, the outcomes of a batch, and
the dead-letter list (the reason per file).

Redis keys: dramatiq's own queue keys, `citewise:outcomes:<batch>` (a list of JSON outcomes,
one per job when it is done for good), `citewise:started:<batch>` (a hash: source -> the
worker that began it) and `citewise:dead-letters` (a hash: one JSON record per collection
and source that could not be ingested, with the reason).
"""

from __future__ import annotations

import json
import socket
import time
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import dramatiq
import redis
from dramatiq.broker import MessageProxy
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import Middleware, Retries

from citewise.errors import ConfigError, InputError
from citewise.workers.file_job import FileJob

QUEUE_NAME = "citewise-ingest"
ACTOR_NAME = "citewise_ingest_file"
DEAD_LETTERS = "citewise:dead-letters"
OUTCOMES_TTL_S = 7 * 24 * 3600


def outcomes_key(batch: str) -> str:
    return f"citewise:outcomes:{batch}"


def started_key(batch: str) -> str:
    return f"citewise:started:{batch}"


def worker_name() -> str:
    import os

    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True, slots=True)
class DeadLetter:
    collection: str
    source: str
    path: str
    reason: str
    attempts: int
    worker: str
    at: float


@dataclass(frozen=True, slots=True)
class Batch:
    batch_id: str
    sources: tuple[str, ...]
    skipped: tuple[str, ...]  # found but not of a supported type


def redis_client(url: str) -> redis.Redis:
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError(f"the queue '{url}' is not a Redis URL (redis://host:6379/0)")
    return redis.Redis.from_url(url)


def make_broker(url: str) -> RedisBroker:
    """A broker whose failed-for-good jobs land in the dead-letter list."""
    broker = RedisBroker(url=url)  # type: ignore[no-untyped-call]
    broker.add_middleware(DeadLetters(broker.client), before=Retries)
    broker.declare_queue(QUEUE_NAME)
    return broker


def record_outcome(client: redis.Redis, batch: str, outcome: dict[str, Any]) -> None:
    key = outcomes_key(batch)
    pipe = client.pipeline()
    pipe.rpush(key, json.dumps(outcome))
    pipe.expire(key, OUTCOMES_TTL_S)
    pipe.execute()


def record_started(client: redis.Redis, batch: str, source: str) -> None:
    key = started_key(batch)
    pipe = client.pipeline()
    pipe.hset(key, source, worker_name())
    pipe.expire(key, OUTCOMES_TTL_S)
    pipe.execute()


def record_dead_letter(client: redis.Redis, letter: DeadLetter) -> None:
    field = f"{letter.collection}/{letter.source}"
    client.hset(DEAD_LETTERS, field, json.dumps(asdict(letter)))


def clear_dead_letter(client: redis.Redis, collection: str, source: str) -> None:
    client.hdel(DEAD_LETTERS, f"{collection}/{source}")


class DeadLetters(Middleware):
    """After a job's last retry fails, records the file and the reason, and counts the job as
    done in its batch (runs after `Retries`, which decides that a job failed for good)."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def after_process_message(
        self,
        broker: dramatiq.Broker,
        message: MessageProxy,
        *,
        result: Any = None,
        exception: BaseException | None = None,
    ) -> None:
        if exception is None or not getattr(message, "failed", False):
            return
        kw = message.kwargs
        reason = f"{type(exception).__name__}: {exception}"
        attempts = int(message.options.get("retries", 0))  # failed tries so far
        record_dead_letter(
            self.client,
            DeadLetter(kw["collection"], kw["source"], kw["path"], reason, attempts,
                       worker_name(), time.time()),
        )  # fmt: skip
        outcome = {"source": kw["source"], "status": "failed", "reason": reason,
                   "chunks": 0, "worker": worker_name(), "attempts": attempts}  # fmt: skip
        record_outcome(self.client, kw["batch"], outcome)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


class IngestQueue:
    """The sending side: `citewise enqueue`, the HTTP service's upload jobs."""

    def __init__(self, url: str) -> None:
        self.broker = make_broker(url)
        self.client = self.broker.client

    def close(self) -> None:
        self.broker.close()

    def submit(self, paths: Sequence[Path], collection: str, root: Path | None = None) -> Batch:
        """One job per supported file under `paths` (sources as `citewise ingest` names
        them from the collection's `root`); the files must be readable at the same path by
        every worker."""
        from citewise.ingest.discovery import discover
        from citewise.ingest.parsers import is_supported

        candidates, outcomes = discover(list(paths), is_supported, root)
        if not candidates and not outcomes:
            raise InputError("nothing to ingest: no files found")
        batch = uuid.uuid4().hex
        # largest first: the batch then ends on small jobs, not one worker's big file
        candidates.sort(key=lambda c: _size(c.path), reverse=True)
        for cand in candidates:
            job = FileJob(str(cand.path.resolve()), cand.source, collection)
            self.send(job, batch)
        return Batch(batch, tuple(c.source for c in candidates),
                     tuple(o.source for o in outcomes))  # fmt: skip

    def send(self, job: FileJob, batch: str, *, keep_dir: str = "") -> None:
        """`keep_dir`: where the worker moves the file once it is in (an upload kept for
        re-ingest); unset, the file stays where it is."""
        extra = {"keep_dir": keep_dir} if keep_dir else {}
        message: dramatiq.Message[Any] = dramatiq.Message(
            queue_name=QUEUE_NAME,
            actor_name=ACTOR_NAME,
            args=(),
            kwargs={**job.as_args(), "batch": batch, **extra},
            options={},
        )
        self.broker.enqueue(message)

    def outcomes(self, batch: str) -> list[dict[str, Any]]:
        raw = self.client.lrange(outcomes_key(batch), 0, -1)
        return [json.loads(r) for r in raw]

    def wait(self, batch: Batch, timeout: float | None = None) -> list[dict[str, Any]]:
        """The batch's outcomes once every job is done for good (or at `timeout`)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            done = int(self.client.llen(outcomes_key(batch.batch_id)))
            if done >= len(batch.sources) or (deadline and time.monotonic() > deadline):
                return self.outcomes(batch.batch_id)
            time.sleep(0.2)

    def dead_letters(self) -> list[DeadLetter]:
        raw = self.client.hgetall(DEAD_LETTERS)
        letters = [DeadLetter(**json.loads(v)) for v in raw.values()]
        return sorted(letters, key=lambda d: (d.collection, d.source))
