"""Every conversation-memory backend runs the memory contract kit
(`citewise.testing.memory_contract`): SQLite on a fake clock, a real private redis-server
(its TTLs enforced by the server, so time really passes) and a real PostgreSQL (a fresh
database per test on the session's server, `tests/pg_server.py`)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from citewise.chat.memory import SQLiteMemory
from citewise.testing.memory_contract import MemoryContractTests, MemoryHarness

if TYPE_CHECKING:
    from chat.memory.conftest import RedisServer


class TestSQLiteMemory(MemoryContractTests):
    @pytest.fixture
    def memory_env(self, tmp_path: Path) -> Iterator[MemoryHarness]:
        path = tmp_path / "memory.db"
        harness = MemoryHarness(lambda ttl, clock: SQLiteMemory(path, ttl, clock=clock))
        yield harness
        harness.close()


@pytest.mark.integration
class TestRedisMemory(MemoryContractTests):
    @pytest.fixture
    def memory_env(self, redis_server: RedisServer) -> Iterator[MemoryHarness]:
        from citewise.chat.memory.redis import RedisMemory

        prefix = f"test:{uuid.uuid4().hex[:12]}"  # the session's server is shared
        harness = MemoryHarness(
            lambda ttl, _clock: RedisMemory(redis_server.url, ttl, prefix=prefix), real_time=True
        )
        yield harness
        harness.close()


@pytest.mark.integration
class TestPostgresMemory(MemoryContractTests):
    @pytest.fixture
    def memory_env(self, postgres_url: str) -> Iterator[MemoryHarness]:
        from citewise.chat.memory.postgres import PostgresMemory  # psycopg: the scale extra

        harness = MemoryHarness(lambda ttl, clock: PostgresMemory(postgres_url, ttl, clock=clock))
        yield harness
        harness.close()
