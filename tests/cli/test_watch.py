"""`citewise watch DIR` as a process: per-file lines as the folder changes; Ctrl-C stops it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
CITEWISE = str(Path(sys.executable).parent / "citewise")


def test_watch_reports_each_file_and_stops_on_interrupt(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nApples grow on trees in the orchard.\n")
    proc = subprocess.Popen(
        [CITEWISE, "watch", str(folder), "--data-dir", str(tmp_path / "data")],
        env={**os.environ, "CITEWISE_EMBEDDER": "hashing"},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    watchdog = threading.Timer(60, proc.kill)  # a missing line fails the test, never hangs it
    watchdog.start()
    try:
        assert proc.stdout.readline().split() == ["ingested", "a.md"]
        time.sleep(0.5)
        (folder / "b.txt").write_text("B\n\nBoats sail on the lake in summer.\n")
        assert proc.stdout.readline().split() == ["ingested", "b.txt"]
        (folder / "a.md").unlink()
        assert proc.stdout.readline().split()[:2] == ["pruned", "a.md"]
    finally:
        watchdog.cancel()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
