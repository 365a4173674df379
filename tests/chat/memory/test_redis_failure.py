"""Redis going away mid-conversation: clear errors naming the URL, history never half-written."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from citewise.chat.memory import Turn, create_memory
from citewise.chat.memory.redis import RedisMemory
from citewise.errors import BackendError, MemoryBackendError

if TYPE_CHECKING:
    from chat.memory.conftest import RedisServer

pytestmark = pytest.mark.integration

StartRedis = Callable[..., "RedisServer"]


def turn(n: int) -> Turn:
    return Turn("conv-1", f"question {n}?", f"answer {n}.", "question", created_at=float(n))


def test_append_and_reads_after_redis_dies_raise_errors_naming_the_url(
    private_redis: StartRedis,
) -> None:
    server = private_redis(persist=True)
    memory = RedisMemory(server.url, 3600, timeout=1.0)
    memory.append(turn(1))
    memory.append(turn(2))
    server.kill()
    started = time.monotonic()
    with pytest.raises(MemoryBackendError, match=f"{server.url}.*unreachable") as err:
        memory.append(turn(3))
    assert isinstance(err.value, BackendError) and err.value.exit_code == 3
    for read in (lambda: memory.turns("conv-1"), memory.sessions, lambda: memory.info("conv-1")):
        with pytest.raises(MemoryBackendError, match=server.url):
            read()
    assert time.monotonic() - started < 10

    server.start()  # same port, same append-only file: what was acknowledged is back
    assert [t.question for t in memory.turns("conv-1")] == ["question 1?", "question 2?"]
    assert memory.require("conv-1").turns == 2
    memory.append(turn(3))
    assert [t.created_at for t in memory.turns("conv-1")] == [1.0, 2.0, 3.0]
    memory.close()


def test_a_hung_redis_times_out_and_the_turn_is_stored_whole_or_not_at_all(
    private_redis: StartRedis,
) -> None:
    server = private_redis()
    memory = RedisMemory(server.url, 3600, timeout=0.5)
    memory.append(turn(1))
    server.signal(signal.SIGSTOP)
    try:
        started = time.monotonic()
        with pytest.raises(MemoryBackendError, match=f"{server.url} did not answer in time"):
            memory.append(turn(2))
        assert time.monotonic() - started < 5
    finally:
        server.signal(signal.SIGCONT)
    fresh = RedisMemory(server.url, 3600, timeout=2.0)
    stored = fresh.turns("conv-1")
    assert stored in ([turn(1)], [turn(1), turn(2)])
    info = fresh.require("conv-1")
    assert info.turns == len(stored)
    assert info.expires_at is not None and info.expires_at > time.time() + 3000
    assert memory.turns("conv-1") == stored  # the old client's replies are not mixed up
    fresh.close()
    memory.close()


def test_an_unreachable_redis_fails_at_startup_with_the_url(
    private_redis: StartRedis, tmp_path: Path
) -> None:
    server = private_redis()
    url = server.url
    server.stop()
    started = time.monotonic()
    with pytest.raises(MemoryBackendError, match=f"{url}.*unreachable"):
        create_memory(url, tmp_path, ttl_seconds=60)
    assert time.monotonic() - started < 5


def test_error_messages_never_show_the_redis_password(private_redis: StartRedis) -> None:
    server = private_redis()
    url = server.url.replace("redis://", "redis://:s3cret-pw@")
    server.stop()
    with pytest.raises(MemoryBackendError) as err:
        RedisMemory(url, 60, timeout=0.5)
    assert "s3cret-pw" not in str(err.value)
    assert f"redis://:***@127.0.0.1:{server.port}/0" in str(err.value)


def test_a_closed_memory_refuses_to_work(private_redis: StartRedis) -> None:
    server = private_redis()
    memory = RedisMemory(server.url, 60)
    memory.close()
    with pytest.raises(MemoryBackendError, match="closed"):
        memory.append(turn(1))
