"""The answer slots: every answer is computed off the event loop on a bounded number of
threads, in arrival order; past `threads + queue_depth` answers admitted at once, a
new one is refused (`RateLimitedError`: 429 with `Retry-After`) instead of queueing without
bound. The assistant (and its one embedder session set) is shared by every thread.
`services.build` makes the process's slots; the HTTP routes admit each answer
(`api/answer_slots.py`)."""

from __future__ import annotations

import math
import threading
import time
import weakref
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

import anyio

from citewise.errors import RateLimitedError

T = TypeVar("T")
MAX_RETRY_AFTER = 60
# extractive answers alternate Python and native steps that release the GIL: a few threads
# per core keep both busy (measured with benchmarks/load_serve.py, docs/serving.md)
THREADS_PER_CORE = 3
LLM_THREADS_PER_CORE = 8  # answers that mostly wait on the model
# weight of the newest answer in the running mean of answer seconds
MEAN_WEIGHT = 0.2


class AnswerSlots:
    """At most `threads` answer steps run at once; at most `queue_depth` more answers wait."""

    def __init__(
        self, threads: int, queue_depth: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.threads = max(1, threads)
        self.queue_depth = max(0, queue_depth)
        self._clock = clock
        self._lock = threading.Lock()
        self._admitted = 0
        self._mean_seconds = 1.0
        self._limiter: anyio.CapacityLimiter | None = None

    @property
    def limiter(self) -> anyio.CapacityLimiter:
        # made on first use, inside the server's event loop
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.threads)
        return self._limiter

    @property
    def admitted(self) -> int:
        """Answers running or waiting now."""
        return self._admitted

    def admit(self) -> Ticket:
        """A ticket for one answer, or `RateLimitedError` when the queue is full."""
        with self._lock:
            if self._admitted >= self.threads + self.queue_depth:
                raise RateLimitedError(
                    f"the server is busy ({self._admitted} answers in progress or queued); "
                    "try again shortly",
                    self._retry_after(),
                )
            self._admitted += 1
        return Ticket(self, self._clock())

    def _retry_after(self) -> int:
        """Seconds until a place is likely free: the queue ahead, drained by every thread."""
        ahead = self._admitted - self.threads + 1
        seconds = self._mean_seconds * max(1, ahead) / self.threads
        return min(MAX_RETRY_AFTER, max(1, math.ceil(seconds)))

    def _release(self, started: float) -> None:
        with self._lock:
            self._admitted -= 1
            took = max(0.0, self._clock() - started)
            self._mean_seconds += MEAN_WEIGHT * (took - self._mean_seconds)


class Ticket:
    """One admitted answer: its blocking steps run in its slot; `release` (idempotent) frees
    the place. A ticket dropped without a release (a response never started) frees it when
    collected."""

    def __init__(self, slots: AnswerSlots, started: float) -> None:
        self._slots = slots
        self._finalizer = weakref.finalize(self, slots._release, started)

    @property
    def limiter(self) -> anyio.CapacityLimiter:
        return self._slots.limiter

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` on an answer thread, after the answers that came first."""
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._slots.limiter)

    def release(self) -> None:
        self._finalizer()

    def __enter__(self) -> Ticket:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
