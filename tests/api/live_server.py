"""A real `citewise serve` on 127.0.0.1 for the auth and isolation tests, stopped by PID."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from processes import stop

CITEWISE = str(Path(sys.executable).parent / "citewise")


@dataclass(frozen=True)
class LiveServer:
    url: str
    data_dir: Path
    pid: int


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve(data_dir: Path, env: Mapping[str, str], *, timeout: float = 90.0) -> Iterator[LiveServer]:
    """`citewise serve` with `env` added (CITEWISE_* settings); waits for /health."""
    port = free_port()
    log = (data_dir / "serve.log").open("w")
    proc = subprocess.Popen(
        [CITEWISE, "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(data_dir), "--log-level", "warning"],
        env={**os.environ, "CITEWISE_EMBEDDER": "hashing", **env},
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"serve exited: {(data_dir / 'serve.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code < 500:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("serve did not answer /health in time")
            time.sleep(0.2)
        yield LiveServer(url=url, data_dir=data_dir, pid=proc.pid)
    finally:
        stop(proc, timeout=15)
        log.close()
