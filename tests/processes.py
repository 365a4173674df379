"""Stopping a process a test started: SIGTERM, then SIGKILL if it does not end in time."""

from __future__ import annotations

import subprocess


def stop(proc: subprocess.Popen[bytes] | subprocess.Popen[str], timeout: float = 15) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
