"""Redis fixtures for the memory tests (the contract itself is in
`citewise.testing.memory_contract`, run per backend by `test_memory_contract.py`).

The Redis server is started once per session on 127.0.0.1 with a free port, no persistence,
in a temporary directory, and exactly that process is terminated at the end.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis


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
