"""RetryPolicy and the retry helpers, with plain values: no server, no real sleeping."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from citewise.llm import (
    LLMConnectionError,
    LLMError,
    LLMRateLimitError,
    LLMResponseError,
    LLMTimeoutError,
    RetryPolicy,
    call_with_retries,
    stream_with_retries,
)
from citewise.llm.retry import parse_retry_after

REQUEST = httpx.Request("POST", "http://127.0.0.1:1/x")


def test_delays_double_from_one_second_and_stop_at_ten_without_jitter() -> None:
    policy = RetryPolicy(jitter=0.0)
    assert [policy.delay(n) for n in range(1, 7)] == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0]


@pytest.mark.parametrize("attempt", [1, 2, 3, 4])
def test_jittered_delays_stay_within_25_percent_of_the_backoff(attempt: int) -> None:
    policy = RetryPolicy(rand=random.Random(attempt).random)
    raw = min(10.0, 2.0 ** (attempt - 1))
    delays = [policy.delay(attempt) for _ in range(500)]
    assert all(0.75 * raw <= d <= min(10.0, 1.25 * raw) for d in delays)
    assert min(delays) < 0.8 * raw and max(delays) > min(0.99 * 10.0, 1.2 * raw)


def test_jitter_extremes_come_from_the_random_source() -> None:
    assert RetryPolicy(rand=lambda: 0.0).delay(2) == 1.5
    assert RetryPolicy(rand=lambda: 0.5).delay(2) == 2.0
    assert RetryPolicy(rand=lambda: 1.0).delay(2) == 2.5


def test_jitter_never_pushes_a_delay_above_the_cap() -> None:
    policy = RetryPolicy(rand=lambda: 1.0)
    assert policy.delay(4) == 10.0  # 8 s × 1.25 would be 10 s; 16 s capped stays 10 s
    assert policy.delay(5) == 10.0


def test_retry_after_replaces_the_backoff_without_jitter() -> None:
    policy = RetryPolicy(rand=lambda: 1.0)
    assert policy.delay(1, retry_after=3.0) == 3.0
    assert policy.delay(3, retry_after=0.5) == 0.5
    assert policy.delay(1, retry_after=0.0) == 0.0


def test_retry_after_is_capped() -> None:
    assert RetryPolicy().delay(1, retry_after=60.0) == 10.0
    assert RetryPolicy(cap=30.0).delay(1, retry_after=60.0) == 30.0


def test_policy_rejects_nonsense() -> None:
    for bad in ({"retries": -1}, {"base": 5.0, "cap": 1.0}, {"jitter": 1.0}):
        with pytest.raises(ValueError):
            RetryPolicy(**bad)
    with pytest.raises(ValueError):
        RetryPolicy().delay(0)


@pytest.mark.parametrize("status", [429, 500, 502, 503, 599])
def test_429_and_5xx_are_retryable(status: int) -> None:
    assert RetryPolicy().is_retryable(status)
    assert RetryPolicy().is_retryable(LLMError("x", status_code=status))


@pytest.mark.parametrize("status", [200, 400, 401, 403, 404, 422])
def test_other_statuses_are_not_retryable(status: int) -> None:
    assert not RetryPolicy().is_retryable(status)
    assert not RetryPolicy().is_retryable(LLMError("x", status_code=status))


@pytest.mark.parametrize(
    ("error", "retryable"),
    [
        (httpx.ConnectError("refused", request=REQUEST), True),
        (httpx.ConnectTimeout("slow connect", request=REQUEST), True),
        (httpx.RemoteProtocolError("peer closed", request=REQUEST), True),
        (httpx.ReadTimeout("slow read", request=REQUEST), False),
        (httpx.UnsupportedProtocol("ftp://", request=REQUEST), False),
        (LLMConnectionError("down"), True),
        (LLMRateLimitError("slow down", status_code=429), True),
        (LLMTimeoutError("read timeout"), False),
        (LLMResponseError("malformed"), False),
        (ValueError("bug"), False),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else str(v),
)
def test_retryable_exceptions(error: BaseException, retryable: bool) -> None:
    assert RetryPolicy().is_retryable(error) is retryable


def test_parse_retry_after_reads_seconds_milliseconds_and_dates() -> None:
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after({"Retry-After": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "1.5"}) == 1.5
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    date = format_datetime(now + timedelta(seconds=7), usegmt=True)
    assert parse_retry_after({"Retry-After": date}, now=now) == 7.0
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None
    assert parse_retry_after({"Retry-After": "-4"}) == 0.0


class Flaky:
    """Fails with the given errors in turn, then returns "ok"."""

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "ok"


def test_call_with_retries_sleeps_between_transient_failures() -> None:
    sleeps: list[float] = []
    seen: list[tuple[int, float]] = []
    fn = Flaky(LLMError("a", status_code=503), LLMError("b", status_code=429, retry_after=7.0))
    result = call_with_retries(
        fn,
        RetryPolicy(rand=lambda: 0.5),
        sleep=sleeps.append,
        on_retry=lambda n, d, e: seen.append((n, d)),
    )
    assert result == "ok" and fn.calls == 3
    assert sleeps == [1.0, 7.0] and seen == [(1, 1.0), (2, 7.0)]


def test_call_with_retries_gives_up_after_the_policy_s_retries() -> None:
    sleeps: list[float] = []
    fn = Flaky(*[LLMError("server at X returned 500", status_code=500) for _ in range(5)])
    with pytest.raises(LLMError) as info:
        call_with_retries(fn, RetryPolicy(retries=2, rand=lambda: 0.5), sleep=sleeps.append)
    assert str(info.value) == "server at X returned 500 (gave up after 2 retries)"
    assert info.value.status_code == 500
    assert fn.calls == 3 and sleeps == [1.0, 2.0]


def test_call_with_retries_raises_non_retryable_errors_at_once() -> None:
    sleeps: list[float] = []
    fn = Flaky(LLMError("bad request", status_code=400))
    with pytest.raises(LLMError, match=r"^bad request$"):
        call_with_retries(fn, RetryPolicy(), sleep=sleeps.append)
    assert fn.calls == 1 and sleeps == []


def _stream_factory(
    plans: list[list[str | Exception]],
) -> tuple[list[int], Callable[[], Iterator[str]]]:
    opened: list[int] = []

    def open_stream() -> Iterator[str]:
        opened.append(1)
        for step in plans[len(opened) - 1]:
            if isinstance(step, Exception):
                raise step
            yield step

    return opened, open_stream


def test_stream_with_retries_retries_a_failure_before_the_first_item() -> None:
    opened, open_stream = _stream_factory([[LLMConnectionError("down")], ["a", "b"]])
    sleeps: list[float] = []
    items = stream_with_retries(open_stream, RetryPolicy(rand=lambda: 0.5), sleep=sleeps.append)
    assert list(items) == ["a", "b"]
    assert len(opened) == 2 and sleeps == [1.0]


def test_stream_with_retries_never_retries_after_an_item_was_yielded() -> None:
    opened, open_stream = _stream_factory([["a", LLMConnectionError("dropped")], ["a", "b"]])
    got: list[str] = []
    with pytest.raises(LLMConnectionError, match=r"^dropped$"):
        got.extend(stream_with_retries(open_stream, RetryPolicy(), sleep=lambda s: None))
    assert got == ["a"] and len(opened) == 1
