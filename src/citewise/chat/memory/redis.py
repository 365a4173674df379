"""Conversation memory in Redis, for several processes or machines sharing sessions.

Per session: `{prefix}:{id}:turns`, a list of turns as JSON, and `{prefix}:{id}:meta`, a hash
(created_at, updated_at, covered_turns, summary). Every write runs in one MULTI/EXEC
transaction that also refreshes EXPIRE on both keys, so a turn is stored whole or not at all.
Any Redis failure raises `MemoryBackendError` naming the URL; writes are never retried (a
retried transaction could store a turn twice), reads are retried once on a stale connection.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import redis as redis_lib
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, WatchError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

from citewise.chat.memory.base import (
    DEFAULT_TTL_SECONDS,
    MemoryBase,
    SessionInfo,
    Turn,
    validate_session_id,
)
from citewise.errors import InputError, MemoryBackendError, NotFoundError
from citewise.text.urls import redact_url

T = TypeVar("T")
DEFAULT_PREFIX = "citewise:memory"
_WATCH_ATTEMPTS = 5


class RedisMemory(MemoryBase):
    """`timeout` bounds connecting and every command, in seconds."""

    def __init__(
        self,
        url: str,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        *,
        prefix: str = DEFAULT_PREFIX,
        timeout: float = 2.0,
    ) -> None:
        if ttl_seconds <= 0:
            raise InputError(f"memory TTL must be positive, got {ttl_seconds}")
        self.url = redact_url(url)
        self.ttl_seconds = ttl_seconds
        self.prefix = prefix
        try:
            self._client: Any = redis_lib.Redis.from_url(
                url,
                decode_responses=True,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                retry=Retry(NoBackoff(), 0),
            )
        except (ValueError, RedisError) as exc:
            raise MemoryBackendError(f"invalid Redis URL {self.url}: {exc}") from exc
        self._read(lambda: self._client.ping())

    # -- plumbing --

    def _keys(self, session_id: str) -> tuple[str, str]:
        validate_session_id(session_id)
        return f"{self.prefix}:{session_id}:turns", f"{self.prefix}:{session_id}:meta"

    @contextmanager
    def _guard(self) -> Iterator[None]:
        self._check_open()
        try:
            yield
        except RedisError as exc:
            if isinstance(exc, RedisConnectionError):
                what = "is unreachable"
            elif isinstance(exc, RedisTimeoutError):
                what = "did not answer in time"
            else:
                what = "failed"
            raise MemoryBackendError(
                f"conversation memory {self.url} {what} ({type(exc).__name__}: {exc})"
            ) from exc

    def _read(self, op: Callable[[], T]) -> T:
        with self._guard():
            try:
                return op()
            except RedisConnectionError:
                return op()  # the pooled connection was stale; it reconnects once

    def _write(self, meta_key: str, op: Callable[[Any], T]) -> T:
        """Runs `op(pipe)` under WATCH meta_key; op checks state, calls multi() and queues."""
        with self._guard():
            for _ in range(_WATCH_ATTEMPTS):
                with self._client.pipeline(transaction=True) as pipe:
                    try:
                        pipe.watch(meta_key)
                        result = op(pipe)
                        pipe.execute()
                        return result
                    except WatchError:
                        continue
            raise MemoryBackendError(f"{self.url}: session {meta_key!r} kept changing; retry")

    def _refresh(self, pipe: Any, turns_key: str, meta_key: str) -> None:
        pipe.hset(meta_key, "updated_at", repr(time.time()))
        pipe.expire(turns_key, self.ttl_seconds)
        pipe.expire(meta_key, self.ttl_seconds)

    # -- the protocol --

    def append(self, turn: Turn) -> None:
        turns_key, meta_key = self._keys(turn.session_id)
        with self._guard(), self._client.pipeline(transaction=True) as pipe:
            pipe.rpush(turns_key, turn.to_json())
            pipe.hsetnx(meta_key, "created_at", repr(time.time()))
            pipe.hsetnx(meta_key, "covered_turns", "0")
            self._refresh(pipe, turns_key, meta_key)
            pipe.execute()

    def turns(self, session_id: str, last: int | None = None) -> list[Turn]:
        turns_key, _ = self._keys(session_id)
        if last is not None and last <= 0:
            return []
        start = 0 if last is None else -last
        rows: list[str] = self._read(lambda: self._client.lrange(turns_key, start, -1))
        try:
            return [Turn.from_json(row) for row in rows]
        except (ValueError, KeyError, TypeError) as exc:
            raise MemoryBackendError(f"corrupt turn in {self.url} ({session_id}): {exc}") from exc

    def summary(self, session_id: str) -> str | None:
        _, meta_key = self._keys(session_id)
        found: str | None = self._read(lambda: self._client.hget(meta_key, "summary"))
        return found

    def set_summary(self, session_id: str, summary: str, covered_turns: int) -> None:
        turns_key, meta_key = self._keys(session_id)

        def op(pipe: Any) -> None:
            if not pipe.exists(meta_key):
                raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
            total = int(pipe.llen(turns_key))
            if not 0 <= covered_turns <= total:
                raise InputError(
                    f"a summary can cover 0..{total} turns of {session_id!r}, not {covered_turns}"
                )
            pipe.multi()
            pipe.hset(meta_key, mapping={"summary": summary, "covered_turns": covered_turns})
            self._refresh(pipe, turns_key, meta_key)

        self._write(meta_key, op)

    def info(self, session_id: str) -> SessionInfo | None:
        return self._infos([session_id])[0]

    def _infos(self, session_ids: list[str]) -> list[SessionInfo | None]:
        def op() -> list[Any]:
            with self._client.pipeline(transaction=True) as pipe:
                for sid in session_ids:
                    turns_key, meta_key = self._keys(sid)
                    pipe.hgetall(meta_key).llen(turns_key).pttl(meta_key)
                return list(pipe.execute())

        replies = self._read(op)
        now = time.time()
        out: list[SessionInfo | None] = []
        for i, sid in enumerate(session_ids):
            meta, count, pttl = replies[3 * i : 3 * i + 3]
            if not meta or "created_at" not in meta:
                out.append(None)
                continue
            out.append(
                SessionInfo(
                    session_id=sid,
                    turns=int(count),
                    created_at=float(meta["created_at"]),
                    updated_at=float(meta.get("updated_at", meta["created_at"])),
                    has_summary="summary" in meta,
                    covered_turns=int(meta.get("covered_turns", 0)),
                    expires_at=now + pttl / 1000 if pttl and pttl > 0 else None,
                )
            )
        return out

    def sessions(self) -> list[SessionInfo]:
        pattern = f"{self.prefix}:*:meta"
        keys: list[str] = self._read(lambda: list(self._client.scan_iter(pattern, count=500)))
        ids = sorted(k[len(self.prefix) + 1 : -len(":meta")] for k in keys)
        valid = [sid for sid in ids if validate_quietly(sid)]
        found = [info for info in self._infos(valid) if info is not None] if valid else []
        return sorted(found, key=lambda s: s.updated_at, reverse=True)

    def delete(self, session_id: str) -> bool:
        turns_key, meta_key = self._keys(session_id)
        with self._guard():
            removed = int(self._client.delete(meta_key, turns_key))
        return removed > 0

    def clear(self, session_id: str) -> None:
        turns_key, meta_key = self._keys(session_id)

        def op(pipe: Any) -> None:
            if not pipe.exists(meta_key):
                raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
            pipe.multi()
            pipe.delete(turns_key)
            pipe.hdel(meta_key, "summary")
            pipe.hset(meta_key, "covered_turns", "0")
            self._refresh(pipe, turns_key, meta_key)

        self._write(meta_key, op)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._client.close()


def validate_quietly(session_id: str) -> bool:
    """True for a valid session id (keys written by something else are skipped)."""
    try:
        validate_session_id(session_id)
    except InputError:
        return False
    return True
