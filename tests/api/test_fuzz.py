"""Malformed requests to every route answer 4xx with a message, never a 500 or a traceback:
bodies of the wrong type and media type, wrong encodings, missing and mistyped fields,
oversize and deeply nested bodies, odd path and query values. Routes come from the OpenAPI
document plus the hidden ones (the UI, the docs pages, /mcp, /metrics), so a new route is
fuzzed without editing this file. Bounded: a fixed case list, one loopback server, a time
budget."""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from http_server import running
from support import write_corpus

pytestmark = pytest.mark.integration
BUDGET_SECONDS = 240
MAX_REQUESTS = 3000
OVERSIZE = 3 * 1024 * 1024  # above every limit: uploads are capped at 64 KiB here
HIDDEN = [
    ("GET", "/"), ("GET", "/ui/{path}"), ("GET", "/docs"), ("GET", "/redoc"),
    ("GET", "/docs/oauth2-redirect"), ("GET", "/openapi.json"), ("GET", "/metrics"),
    ("GET", "/mcp"), ("POST", "/mcp"), ("DELETE", "/mcp"),
]  # fmt: skip
PATH_VALUES = ["x", "..%2F..%2Fetc%2Fpasswd", "%00", "9" * 300, "%C3%A9t%C3%A9", "-1", "%FF%FE"]
QUERIES = ["", "?k=abc&collection=..%2Fx&q=", "?k=-5&collection=" + "c" * 300 + "&q=%00"]
WRONG_JSON: list[Any] = [
    {}, [], "text", 7, None, True, [{"message": "hi"}],
    {"message": 5, "query": [], "session_id": {}, "collection": 3, "model": [], "messages": "x",
     "username": None, "password": 1, "scopes": "read", "members": 2, "k": "many"},
    {"message": "hi", "messages": [{"role": "wizard", "content": 3}], "model": "citewise"},
    {"message": "hi", "session_id": "../../etc", "collection": "../x"},
]  # fmt: skip
RAW_BODIES: list[tuple[str, bytes]] = [
    ("application/json", b'{"message": "caf\xe9 \xff"}'),  # not UTF-8
    ("application/json; charset=utf-16", '{"message": "hi"}'.encode("utf-16")),
    ("application/json", b'{"message": '),  # cut off
    ("application/json", b"[" * 20_000 + b"]" * 20_000),  # deep nesting
    ("application/x-www-form-urlencoded", b"message=hi&query=hi&username=a&password=b"),
    ("text/plain", b"hello"),
    ("multipart/form-data", b"--x\r\n\r\nno boundary declared"),
    ("multipart/form-data; boundary=x", b"--x\r\nContent-Disposition: form-data\r\n\r\ncut"),
    ("application/octet-stream", bytes(range(256))),
    ("application/json", b'{"message": "' + b"a" * OVERSIZE + b'"}'),
]


@dataclass
class Findings:
    sent: int = 0
    bad: list[str] = field(default_factory=list)

    def check(self, r: httpx.Response, what: str) -> None:
        self.sent += 1
        text = r.text[:4000]
        if r.status_code >= 500 or "Traceback" in text or 'File "/' in text:
            self.bad.append(f"{what} -> {r.status_code}: {text[:200]!r}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    from citewise.api import create_app
    from citewise.assistant import Assistant
    from citewise.config import load_settings

    root: Path = tmp_path_factory.mktemp("fuzz")
    settings = load_settings(
        data_dir=root / "data", embedder="hashing", max_upload_bytes=64 * 1024, rate_limit=""
    )
    assistant = Assistant(settings=settings)
    assistant.ingest([write_corpus(root / "docs")], collection="default")
    app = create_app(settings, assistant=assistant)
    with running(app) as url:
        yield url, app.openapi()
    assistant.close()


def routes(openapi: dict[str, Any]) -> list[tuple[str, str]]:
    found = [
        (method.upper(), path)
        for path, item in openapi["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    ]
    return sorted(set(found) | set(HIDDEN))


def fill(path: str, value: str) -> str:
    return re.sub(r"\{[^}]+\}", value, path)


def requests_for(method: str, path: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(description, url path, httpx keyword arguments)."""
    has_params = "{" in path
    for value, query in itertools.product(PATH_VALUES if has_params else ["x"], QUERIES):
        yield f"{method} {path} [{value} {query}]", fill(path, value) + query, {}
    if method in ("GET", "HEAD"):
        return
    target = fill(path, "x")
    for body in WRONG_JSON:
        yield f"{method} {path} json={json.dumps(body)[:60]}", target, {"json": body}
    for media, raw in RAW_BODIES:
        what = f"{method} {path} {media} {raw[:30]!r} ({len(raw)} bytes)"
        yield what, target, {"content": raw, "headers": {"content-type": media}}
    yield f"{method} {path} no content type", target, {"content": b'{"message": "hi"}'}


def test_no_route_answers_a_malformed_request_with_a_500_or_a_traceback(
    server: tuple[str, dict[str, Any]],
) -> None:
    url, openapi = server
    findings = Findings()
    started = time.monotonic()
    with httpx.Client(base_url=url, timeout=60) as client:
        for method, path in routes(openapi):
            for what, target, kwargs in requests_for(method, path):
                assert findings.sent < MAX_REQUESTS, "the case list grew past its bound"
                assert time.monotonic() - started < BUDGET_SECONDS, (
                    f"over the time budget after {findings.sent} requests"
                )
                headers = {
                    "accept": "application/json, text/event-stream",
                    **kwargs.pop("headers", {}),
                }
                try:
                    response = client.request(method, target, headers=headers, **kwargs)
                except httpx.TransportError as exc:  # the server dropped the connection
                    findings.bad.append(f"{what} -> {type(exc).__name__}: {exc}")
                    continue
                findings.check(response, what)
    assert findings.sent > 500
    assert not findings.bad, f"{len(findings.bad)} of {findings.sent}:\n" + "\n".join(
        findings.bad[:40]
    )
