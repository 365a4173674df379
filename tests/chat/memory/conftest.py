"""Memory fixtures: every contract test runs against SQLite, a real, private redis-server and
a real PostgreSQL (the session's server from `tests/pg_server.py`, a fresh database per test).

The Redis server is started once per session on 127.0.0.1 with a free port, no persistence,
in a temporary directory, and exactly that process is terminated at the end.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from citewise.chat.memory import Memory, SQLiteMemory
from citewise.chat.memory.postgres import PostgresMemory
from citewise.chat.memory.redis import RedisMemory


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class RedisServer:
    """One redis-server process this test suite owns. `persist=True` keeps an fsync'd
    append-only file so a killed server restarts with what it had acknowledged."""

    def __init__(self, workdir: Path, *, persist: bool = False) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (install.sh installs it)")
        self.binary = binary
        self.workdir = workdir
        self.persist = persist
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        workdir.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        aof = ["--appendonly", "yes", "--appendfsync", "always"] if self.persist else []
        args = [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", ""]
        args += aof or ["--appendonly", "no"]
        args += ["--dir", str(self.workdir), "--logfile", str(self.workdir / "redis.log")]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=0.5)
        deadline = time.monotonic() + 15
        while True:
            try:
                if client.ping():
                    break
            except redis.RedisError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    pytest.fail(f"redis-server on port {self.port} did not start")
                time.sleep(0.05)
        client.close()
        return self

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def kill(self) -> None:
        """SIGKILL, as if the server died mid-conversation."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[Callable[..., RedisServer]]:
    """Starts redis-servers that only this test uses (to kill, pause or restart them)."""
    started: list[RedisServer] = []

    def start(*, persist: bool = False) -> RedisServer:
        server = RedisServer(tmp_path / f"redis{len(started)}", persist=persist)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


class MemoryEnv:
    """Opens memories of one backend over the same storage; `advance` moves time on
    (a fake clock for SQLite and PostgreSQL, real sleeping for Redis, whose TTLs the server
    enforces). `url` is the server's for Redis and PostgreSQL."""

    def __init__(self, backend: str, tmp_path: Path, url: str | None) -> None:
        self.backend = backend
        self.path = tmp_path / "memory.db"
        self.url = url
        self.prefix = f"test:{uuid.uuid4().hex[:12]}"
        self.now = 1_700_000_000.0
        self.opened: list[Memory] = []

    def open(self, ttl_seconds: int = 3600) -> Memory:
        memory: Memory
        if self.backend == "sqlite":
            memory = SQLiteMemory(self.path, ttl_seconds, clock=lambda: self.now)
        elif self.backend == "postgresql":
            assert self.url is not None
            memory = PostgresMemory(self.url, ttl_seconds, clock=lambda: self.now)
        else:
            assert self.url is not None
            memory = RedisMemory(self.url, ttl_seconds, prefix=self.prefix)
        self.opened.append(memory)
        return memory

    def advance(self, seconds: float) -> None:
        if self.backend != "redis":
            self.now += seconds
        else:
            time.sleep(seconds)

    def close(self) -> None:
        for memory in self.opened:
            memory.close()


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("redis", marks=pytest.mark.integration),
        pytest.param("postgresql", marks=pytest.mark.integration),
    ]
)
def memory_env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryEnv]:
    url: str | None = None
    if request.param == "redis":
        url = request.getfixturevalue("redis_server").url
    elif request.param == "postgresql":
        url = str(request.getfixturevalue("postgres_url"))
    env = MemoryEnv(request.param, tmp_path, url)
    try:
        yield env
    finally:
        env.close()


@pytest.fixture
def memory(memory_env: MemoryEnv) -> Memory:
    return memory_env.open()
