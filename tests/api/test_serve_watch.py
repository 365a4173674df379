"""`citewise serve --watch DIR` as a process: the served collection follows the folder."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from http_server import free_port
from processes import stop

pytestmark = pytest.mark.integration
CITEWISE = str(Path(sys.executable).parent / "citewise")


def wait_until(check: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def test_serve_with_watch_ingests_and_removes_files(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "first.md").write_text("# First\n\nThe kettle is descaled every March.\n")
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen(
        [CITEWISE, "serve", "--port", str(port), "--watch", str(folder),
         "--data-dir", str(tmp_path / "data"), "--log-level", "warning"],
        env={**os.environ, "CITEWISE_EMBEDDER": "hashing"}, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"

    def sources() -> list[str]:
        try:
            docs = httpx.get(f"{url}/documents", timeout=5).json()["documents"]
        except httpx.TransportError:
            return []
        return [d["source"] for d in docs]

    try:
        wait_until(lambda: sources() == ["first.md"])
        (folder / "second.txt").write_text("Second\n\nThe boiler is serviced in June.\n")
        wait_until(lambda: sources() == ["first.md", "second.txt"])
        (folder / "first.md").unlink()
        wait_until(lambda: sources() == ["second.txt"])
    finally:
        stop(proc, timeout=30)
        log.close()
    assert proc.returncode is not None


def test_serve_requiring_credentials_without_users_says_how_to_create_one(
    tmp_path: Path,
) -> None:
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [CITEWISE, "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"),
             "--log-level", "warning"],
            env={**os.environ, "CITEWISE_EMBEDDER": "hashing", "CITEWISE_AUTH_REQUIRED": "true"},
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            wait_until(lambda: "No users yet" in log_path.read_text())
            wait_until(lambda: _status(f"http://127.0.0.1:{port}/documents") == 401)
        finally:
            stop(proc, timeout=30)
    assert "citewise users create NAME --admin" in " ".join(log_path.read_text().split())


def _status(url: str) -> int:
    try:
        return httpx.get(url, timeout=5).status_code
    except httpx.TransportError:
        return 0
