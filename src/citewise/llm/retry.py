"""When and how long to wait before trying an LLM request again.

The policy: up to 3 retries after the first attempt, on 429, 5xx and connection failures;
never on other 4xx, on malformed answers, or on read timeouts (a server that went quiet for
the whole read timeout is busy, and asking it again only adds load). The wait doubles from 1 s
and is capped at 10 s, with ±25 % jitter so that clients which failed together do not retry
together. A server's Retry-After (seconds or an HTTP date; OpenAI-style `retry-after-ms` too)
replaces the computed wait, without jitter, but is still capped.

Everything here is pure or takes its clock, sleep and random source as arguments, so the
tests never wait.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TypeVar

import httpx

from citewise.llm.base import LLMError, is_retryable_status

T = TypeVar("T")
Sleep = Callable[[float], None]
OnRetry = Callable[[int, float, BaseException], None]

log = logging.getLogger("citewise.llm")


@dataclass(frozen=True)
class RetryPolicy:
    """`retries`: retries after the first attempt (so at most `retries + 1` requests).
    `base`: the first wait in seconds, doubled for each further retry, never above `cap`.
    `jitter`: the wait is scaled by a factor drawn uniformly from [1 - jitter, 1 + jitter]
    (then capped). `rand` returns floats in [0, 1); inject one to make delays predictable."""

    retries: int = 3
    base: float = 1.0
    cap: float = 10.0
    jitter: float = 0.25
    rand: Callable[[], float] = field(default=random.random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.retries < 0:
            raise ValueError(f"retries must be >= 0, got {self.retries}")
        if self.base < 0 or self.cap < self.base:
            raise ValueError(f"need 0 <= base <= cap, got base={self.base}, cap={self.cap}")
        if not 0 <= self.jitter < 1:
            raise ValueError(f"jitter must be in [0, 1), got {self.jitter}")

    @classmethod
    def never(cls) -> RetryPolicy:
        """One attempt, no retries."""
        return cls(retries=0)

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number `attempt` (1 for the first retry)."""
        if attempt < 1:
            raise ValueError(f"attempt counts retries from 1, got {attempt}")
        if retry_after is not None:
            return min(self.cap, max(0.0, retry_after))
        raw = min(self.cap, self.base * 2.0 ** (attempt - 1))
        factor = 1.0 + self.jitter * (2.0 * self.rand() - 1.0)
        return min(self.cap, max(0.0, raw * factor))

    def is_retryable(self, failure: int | BaseException) -> bool:
        """For an HTTP status or an exception: may trying again help?"""
        if isinstance(failure, int):
            return is_retryable_status(failure)
        if isinstance(failure, LLMError):
            return failure.retryable
        if isinstance(failure, httpx.TimeoutException):
            # No connection was made (or none was free): safe and useful to retry. A read or
            # write timeout means a slow server; retrying would multiply the wait.
            return isinstance(failure, httpx.ConnectTimeout | httpx.PoolTimeout)
        return isinstance(failure, httpx.TransportError) and not isinstance(
            failure, httpx.UnsupportedProtocol
        )


def parse_retry_after(headers: Mapping[str, str], *, now: datetime | None = None) -> float | None:
    """The wait a response asks for, in seconds: `retry-after-ms`, else `Retry-After` as
    seconds or as an HTTP date. None when absent or unreadable."""
    lowered = {k.lower(): v for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def log_retry(attempt: int, delay: float, error: BaseException) -> None:
    """The default `on_retry`: one warning line per retry."""
    log.warning("%s; retry %d in %.1f s", error, attempt, delay)


def call_with_retries(
    fn: Callable[[], T],
    policy: RetryPolicy,
    *,
    sleep: Sleep = time.sleep,
    on_retry: OnRetry = log_retry,
) -> T:
    """`fn()`, tried again after retryable failures as the policy says. When the retries are
    used up, an `LLMError` is re-raised with "(gave up after N retries)" in its message."""
    attempt = 0
    while True:
        try:
            return fn()
        except Exception as exc:
            _raise_if_final(exc, attempt, policy)
            attempt += 1
            _wait(policy, attempt, exc, sleep, on_retry)


def _raise_if_final(exc: Exception, attempt: int, policy: RetryPolicy) -> None:
    """Re-raises `exc` when it is not retryable or the retries are used up; an `LLMError`
    after retries says how many were made."""
    if attempt >= policy.retries or not policy.is_retryable(exc):
        if attempt and isinstance(exc, LLMError):
            raise exc.gave_up(attempt) from exc
        raise exc


def stream_with_retries(
    open_stream: Callable[[], Iterator[T]],
    policy: RetryPolicy,
    *,
    sleep: Sleep = time.sleep,
    on_retry: OnRetry = log_retry,
) -> Iterator[T]:
    """The items of `open_stream()`. A retryable failure before the first item starts a new
    stream; once an item has been yielded, failures propagate as they are (the consumer has
    already seen part of the output, and a second stream would repeat it)."""
    attempt = 0
    while True:
        started = False
        items = open_stream()
        try:
            for item in items:
                started = True
                yield item
            return
        except Exception as exc:
            if started:
                raise
            _raise_if_final(exc, attempt, policy)
            attempt += 1
            _wait(policy, attempt, exc, sleep, on_retry)
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()


def _wait(
    policy: RetryPolicy, attempt: int, exc: Exception, sleep: Sleep, on_retry: OnRetry
) -> None:
    retry_after = exc.retry_after if isinstance(exc, LLMError) else None
    delay = policy.delay(attempt, retry_after)
    on_retry(attempt, delay, exc)
    sleep(delay)
