"""The answer routes' own dependencies (the caller, the assistant, the answer pool) are
coroutines: FastAPI runs a plain-function dependency on its thread pool, a thread hop per
request for an attribute read. Checking a credential reads the user store, so that one
still runs on a worker thread."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from api.test_chat_session_off_loop import on_event_loop
from citewise.auth.models import Principal

ANSWER_ROUTES = {
    ("POST", "/chat/"),
    ("POST", "/chat/stream"),
    ("POST", "/chat/{chat_id}/stream"),
    ("POST", "/api/query"),
    ("POST", "/v1/chat/completions"),
}


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for dependency in dependant.dependencies:
        if dependency.call is not None:
            yield dependency.call
        yield from _calls(dependency)


def _is_coroutine(call: Callable[..., Any]) -> bool:
    # a security scheme is an object with an async __call__
    return inspect.iscoroutinefunction(call) or inspect.iscoroutinefunction(
        getattr(call, "__call__", None)  # noqa: B004
    )


def _app(tmp_path: Path, **overrides: Any) -> FastAPI:
    from citewise.api import create_app
    from citewise.config import load_settings

    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing", **overrides)
    return create_app(settings)


def test_answer_routes_resolve_their_dependencies_without_a_thread() -> None:
    from citewise.api.app import ROUTERS

    checked = set()
    for route in (route for module in ROUTERS for route in module.router.routes):
        if not isinstance(route, APIRoute):
            continue
        for method in (route.methods or set()) & {"POST"}:
            if (method, route.path) not in ANSWER_ROUTES:
                continue
            checked.add((method, route.path))
            calls = list(_calls(route.dependant))
            assert calls, route.path
            blocking = [getattr(c, "__name__", repr(c)) for c in calls if not _is_coroutine(c)]
            assert blocking == [], f"{route.path} runs {blocking} on the thread pool"
    assert checked == ANSWER_ROUTES


@pytest.fixture
def noted_auth(tmp_path: Path) -> Iterator[tuple[TestClient, list[tuple[str | None, bool]]]]:
    """A server that requires credentials; each `authenticate` call is noted with whether it
    ran on the event loop."""
    app = _app(tmp_path, auth_required=True)
    auth = app.state.auth
    original = auth.authenticate
    noted: list[tuple[str | None, bool]] = []

    def authenticate(credential: str | None) -> Principal:
        noted.append((credential, on_event_loop()))
        principal: Principal = original(credential)
        return principal

    auth.authenticate = authenticate
    with TestClient(app) as client:
        yield client, noted


def test_a_credential_is_checked_on_a_worker_thread(
    noted_auth: tuple[TestClient, list[tuple[str | None, bool]]],
) -> None:
    client, noted = noted_auth
    reply = client.get("/sessions", headers={"X-API-Key": "cwk_not-a-real-key"})
    assert reply.status_code == 401
    assert noted == [("cwk_not-a-real-key", False)]


def test_no_credential_is_refused_without_a_thread(
    noted_auth: tuple[TestClient, list[tuple[str | None, bool]]],
) -> None:
    client, noted = noted_auth
    reply = client.get("/sessions")
    assert reply.status_code == 401
    assert noted == [(None, True)]
