"""`/mcp` on the HTTP API (Streamable HTTP) through a real uvicorn, driven by the SDK's own
client: the API's auth and collection scoping apply to every tool and resource."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from api.live_server import serve as citewise_serve
from http_server import running
from mcp_server.checks import check_every_tool, check_own_fact_only
from mcp_server.conftest import DataDir
from mcp_server.loop import run_client

pytestmark = pytest.mark.integration
INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "test", "version": "0"}},
}  # fmt: skip
STREAMABLE = {"Accept": "application/json, text/event-stream"}


def serve(data_dir: DataDir, **overrides: object) -> Iterator[str]:
    from citewise.api import create_app
    from citewise.config import load_settings

    settings = load_settings(data_dir=data_dir.path, embedder="hashing", **overrides)
    with running(create_app(settings)) as url:
        yield url


@pytest.fixture(scope="module")
def local_url(data_dir: DataDir) -> Iterator[str]:
    """A loopback server that does not require auth (what `citewise serve` starts)."""
    yield from serve(data_dir)


@pytest.fixture(scope="module")
def guarded_url(data_dir: DataDir) -> Iterator[str]:
    yield from serve(data_dir, auth_required=True)


def http_client(url: str, key: str | None = None) -> Client:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    transport = streamable_http_client(
        f"{url}/mcp", http_client=httpx2.AsyncClient(headers=headers, timeout=120)
    )
    return Client(transport, read_timeout_seconds=120)


def test_mcp_on_loopback_without_auth_answers_every_tool_with_citations(local_url: str) -> None:
    async def run() -> None:
        async with http_client(local_url) as client:
            await check_every_tool(client)

    run_client(run)


def test_mcp_with_a_users_api_key_reads_only_that_users_collections(
    guarded_url: str, data_dir: DataDir
) -> None:
    alice, bob = data_dir.tenants["alice"], data_dir.tenants["bob"]

    async def run() -> None:
        async with http_client(guarded_url, alice.key) as client:
            await check_own_fact_only(client, alice, bob)
        async with http_client(guarded_url, bob.key) as client:
            await check_own_fact_only(client, bob, alice)

    run_client(run)


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer cwk_wrong_key"}])
def test_mcp_rejects_a_request_without_valid_credentials_when_auth_is_required(
    guarded_url: str, headers: dict[str, str]
) -> None:
    r = httpx.post(f"{guarded_url}/mcp", json=INITIALIZE, headers={**STREAMABLE, **headers})
    assert r.status_code == 401 and r.headers["WWW-Authenticate"] == "Bearer"
    assert r.json()["type"] == "AuthError"


def test_an_mcp_session_opened_with_one_key_is_not_found_with_another(
    guarded_url: str, data_dir: DataDir
) -> None:
    alice, bob = data_dir.tenants["alice"], data_dir.tenants["bob"]
    opened = httpx.post(
        f"{guarded_url}/mcp", json=INITIALIZE,
        headers={**STREAMABLE, "Authorization": f"Bearer {alice.key}"},
    )  # fmt: skip
    assert opened.status_code == 200
    session = opened.headers["mcp-session-id"]
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    for key, status in ((bob.key, 404), (alice.key, 200)):
        r = httpx.post(
            f"{guarded_url}/mcp", json=listing,
            headers={**STREAMABLE, "Authorization": f"Bearer {key}", "mcp-session-id": session,
                     "mcp-protocol-version": "2025-06-18"},
        )  # fmt: skip
        assert r.status_code == status, r.text


def test_mcp_takes_the_api_key_header_and_needs_the_read_scope(
    guarded_url: str, data_dir: DataDir
) -> None:
    from citewise.auth.backends import open_auth_db
    from citewise.auth.store import AuthStore
    from citewise.config import load_settings

    store = AuthStore(open_auth_db(load_settings(data_dir=data_dir.path)))
    try:
        user = store.find_user("alice")
        assert user is not None
        writer, _ = store.create_key(user.user_id, "write only", frozenset({"write"}), None)
    finally:
        store.close()
    url = f"{guarded_url}/mcp"
    alice = data_dir.tenants["alice"]
    assert httpx.post(
        url, json=INITIALIZE, headers={**STREAMABLE, "X-API-Key": alice.key}
    ).is_success
    r = httpx.post(url, json=INITIALIZE, headers={**STREAMABLE, "X-API-Key": writer.key})
    assert r.status_code == 403 and "'read' scope" in r.json()["error"]


def test_mcp_on_loopback_refuses_a_foreign_host_header(local_url: str) -> None:
    """A web page that rebinds its name to 127.0.0.1 cannot drive a server without login."""
    r = httpx.post(
        f"{local_url}/mcp", json=INITIALIZE, headers={**STREAMABLE, "Host": "evil.example:80"}
    )
    assert r.status_code in (403, 421)
    assert httpx.post(f"{local_url}/mcp", json=INITIALIZE, headers=STREAMABLE).is_success


def test_citewise_serve_answers_mcp_with_the_users_api_key(data_dir: DataDir) -> None:
    """The real command line: `citewise serve` with auth required, in its own process."""
    alice, bob = data_dir.tenants["alice"], data_dir.tenants["bob"]

    async def run(url: str) -> None:
        async with http_client(url, alice.key) as client:
            await check_own_fact_only(client, alice, bob)

    with citewise_serve(data_dir.path, {"CITEWISE_AUTH_REQUIRED": "1"}) as live:
        assert httpx.post(f"{live.url}/mcp", json=INITIALIZE, headers=STREAMABLE).status_code == 401
        run_client(run, live.url)
