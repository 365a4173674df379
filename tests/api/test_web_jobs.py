"""`POST /documents/web` runs the fetch and the ingest as a job off the request: it answers
202 with the job at once, and `/jobs/{id}` follows it to one entry per page (robots.txt
refusals with their reason); a server with the default guard refuses a loopback address."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.conftest import make_settings
from http_server import running
from static_site import serving

PAGES = {
    "/robots.txt": ("text/plain", b"User-agent: *\nDisallow: /private/\n"),
    "/": (
        "text/html",
        b"<html><head><title>Lighthouse</title></head><body><h1>Lighthouse</h1>"
        b'<p>The keeper logs the weather twice a day.</p><a href="/lamp">Lamp</a> '
        b'<a href="/private/keys">Keys</a></body></html>',
    ),
    "/lamp": (
        "text/html",
        b"<html><head><title>Lamp</title></head><body><h1>Lamp</h1>"
        b"<p>The lighthouse lamp is lit at dusk.</p></body></html>",
    ),
    "/private/keys": ("text/html", b"<html><body><p>The key is under the mat.</p></body></html>"),
}


@pytest.fixture(scope="module")
def intranet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose operator allows private addresses (the site runs on 127.0.0.1)."""
    from citewise.api import create_app
    from citewise.assistant import Assistant

    root: Path = tmp_path_factory.mktemp("web-jobs")
    settings: Any = make_settings(root, web_allow_private=True)
    assistant = Assistant(settings=settings)
    with running(create_app(settings, assistant=assistant)) as url:
        yield url
    assistant.close()


def _finished(client: httpx.Client, job: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status: dict[str, Any] = client.get(f"/jobs/{job['job_id']}").json()
        if status["state"] in ("done", "failed"):
            return status
        time.sleep(0.1)
    raise AssertionError(f"the web job did not finish: {status}")


def test_a_crawl_runs_as_a_job_and_lists_each_page(intranet: str) -> None:
    with serving(PAGES) as site, httpx.Client(base_url=intranet, timeout=30) as client:
        r = client.post("/documents/web", json={"url": site + "/", "crawl": True, "max_pages": 5})
        assert r.status_code == 202 and r.headers["Location"] == f"/jobs/{r.json()['job_id']}"
        job = r.json()
        assert job["state"] in ("queued", "running") and job["files"][0]["name"] == site + "/"
        status = _finished(client, job)
    host = site.removeprefix("http://").replace(":", "_")
    files = {f["name"]: f for f in status["files"]}
    assert status["state"] == "done"
    assert files[f"{host}/lamp.html"]["stage"] == "done" and files[f"{host}/lamp.html"]["chunks"]
    assert files[f"{host}/index.html"]["stage"] == "done"
    assert files[f"{site}/private/keys"]["stage"] == "failed"
    assert "robots.txt disallows it" in files[f"{site}/private/keys"]["reason"]
    listed = {d["source"] for d in httpx.get(f"{intranet}/documents").json()["documents"]}
    assert f"{host}/lamp.html" in listed


def test_a_loopback_address_is_refused_in_the_job(client: httpx.Client) -> None:
    r = client.post("/documents/web", json={"url": "http://127.0.0.1:9/", "crawl": True})
    assert r.status_code == 202
    status = _finished(client, r.json())
    ((page),) = status["files"]
    assert status["state"] == "failed"
    assert page["stage"] == "failed" and "loopback" in page["reason"]
