"""`citewise serve` with CITEWISE_JOBS=queue over a real redis-server and one `citewise
worker` process, both on one SQLite store: an upload is ingested by the worker, `GET
/jobs/{id}` and its events report each file's end, the file is kept for re-ingest."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from httpx_sse import connect_sse

from http_server import running

pytestmark = pytest.mark.integration
NOTE = b"# Ferry\n\nThe island ferry leaves the north pier at seven each morning.\n"


@pytest.fixture
def worker(tmp_path: Path, redis_url: str) -> Iterator[None]:
    env = {**os.environ, "CITEWISE_QUEUE": redis_url, "CITEWISE_EMBEDDER": "hashing",
           "CITEWISE_DATA_DIR": str(tmp_path / "data"), "CITEWISE_LOG": "INFO"}  # fmt: skip
    log = tmp_path / "worker.log"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from citewise.cli import main; main()", "worker"],
        env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while "consuming" not in log.read_text(errors="replace"):
            assert proc.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.1)
        yield
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            assert proc.wait(timeout=90) == 0, log.read_text(errors="replace")
        finally:
            if proc.poll() is None:
                proc.kill()


@pytest.fixture
def client(tmp_path: Path, redis_url: str, worker: None) -> Iterator[httpx.Client]:
    from citewise.api import create_app
    from citewise.config import load_settings

    settings = load_settings(
        data_dir=tmp_path / "data", embedder="hashing", jobs="queue", queue=redis_url
    )
    with running(create_app(settings)) as url, httpx.Client(base_url=url, timeout=60) as c:
        yield c


def wait_for(client: httpx.Client, job_id: str) -> dict[str, object]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = client.get(f"/jobs/{job_id}").json()
        if job["state"] in ("done", "failed"):
            return dict(job)
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish")


def test_an_upload_is_ingested_by_the_worker_and_reported_per_file(
    client: httpx.Client, tmp_path: Path
) -> None:
    files = [("files", ("ferry.md", NOTE)), ("files", ("blank.md", b"   \n\n   \n"))]
    r = client.post("/documents", files=files)
    assert r.status_code == 202
    job = wait_for(client, r.json()["job_id"])
    stages = {f["name"]: (f["stage"], f["reason"]) for f in job["files"]}  # type: ignore[attr-defined]
    assert stages["ferry.md"] == ("done", "")
    assert stages["blank.md"][0] == "failed" and stages["blank.md"][1]
    assert job["state"] == "failed"  # one file of it failed
    assert [d["source"] for d in client.get("/documents").json()["documents"]] == ["ferry.md"]
    uploads = tmp_path / "data" / "uploads" / "default"
    assert (uploads / "ferry.md").read_bytes() == NOTE  # kept for re-ingest
    assert not (uploads / "blank.md").exists()
    assert list((uploads / ".staging").iterdir()) == []
    assert client.get("/jobs").json()["jobs"][0]["job_id"] == job["job_id"]


def test_reingest_goes_to_the_worker_and_streams_its_end(client: httpx.Client) -> None:
    first = client.post("/documents", files={"files": ("ferry.md", NOTE)}).json()
    wait_for(client, first["job_id"])
    again = client.post("/documents/ferry.md/reingest")
    assert again.status_code == 202
    events = []
    with connect_sse(client, "GET", f"/jobs/{again.json()['job_id']}/events") as source:
        for sse in source.iter_sse():
            events.append((sse.event, json.loads(sse.data)["files"][0]["stage"]))
    assert events[-1] == ("done", "unchanged")
