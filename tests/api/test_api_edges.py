"""The HTTP API's edges: documentation pages that work offline, clear 4xx for malformed
requests (never a 500), one status for an empty or blank message, unknown models and
sessions reported as such."""

from __future__ import annotations

import re

import httpx
import pytest

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1
ASSET = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url:\s*['"]([^'"]+)['"]""")


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_api_docs_pages_load_only_vendored_assets(client: httpx.Client, page: str) -> None:
    r = client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "://" not in r.text, "the page would fetch from another origin (blank offline)"
    urls = [a or b for a, b in ASSET.findall(r.text)]
    assets = [u for u in urls if u.startswith("/ui/vendor/")]
    assert len(assets) >= 2 and "/openapi.json" in urls + re.findall(r"/openapi\.json", r.text)
    for url in assets:
        got = client.get(url)
        assert got.status_code == 200 and len(got.content) > 500, url


def test_swagger_oauth2_redirect_page_is_served(client: httpx.Client) -> None:
    r = client.get("/docs/oauth2-redirect")
    assert r.status_code == 200 and "oauth2" in r.text


JSON_ROUTES = ["/chat/", "/chat/stream", "/api/query", "/v1/chat/completions"]


@pytest.mark.parametrize("route", JSON_ROUTES)
@pytest.mark.parametrize(
    "body",
    [
        {"data": {"message": "hi", "query": "hi"}},
        {"content": b"hello", "headers": {"content-type": "text/plain"}},
        {"content": b"\xff\xfe<x/>", "headers": {"content-type": "application/xml"}},
    ],
    ids=["form", "text", "xml"],
)
def test_a_body_that_is_not_json_is_a_415_that_says_so(
    client: httpx.Client, route: str, body: dict[str, object]
) -> None:
    r = client.post(route, **body)  # type: ignore[arg-type]
    assert r.status_code == 415, r.text
    error = r.json()["error"]
    message = error["message"] if route.startswith("/v1/") else error
    assert "application/json" in message


def test_a_json_body_to_the_login_form_is_a_415(client: httpx.Client) -> None:
    r = client.post("/auth/token", json={"username": "a", "password": "b"})
    assert r.status_code == 415 and "form" in r.json()["error"]


@pytest.mark.parametrize("route", ["/chat/", "/api/query"])
def test_malformed_json_is_a_422_naming_the_problem(client: httpx.Client, route: str) -> None:
    r = client.post(route, content=b'{"message": ', headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"].startswith("the body is not valid JSON")


@pytest.mark.parametrize(("route", "field"), [("/chat/", "message"), ("/chat/stream", "message"),
                                               ("/api/query", "query")])  # fmt: skip
@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_an_empty_and_a_blank_message_get_the_same_422(
    client: httpx.Client, route: str, field: str, text: str
) -> None:
    r = client.post(route, json={field: text})
    assert r.status_code == 422
    assert r.json()["error"] == f"{field}: is empty: type a question or some keywords"


def test_an_unknown_model_is_a_404_on_a_loopback_server_without_auth(client: httpx.Client) -> None:
    """The local caller is an admin; a mistyped model is still not a new collection."""
    messages = [{"role": "user", "content": "What is the default request timeout?"}]
    r = client.post("/v1/chat/completions", json={"model": "defualt", "messages": messages})
    assert r.status_code == 404 and "no model 'defualt'" in r.json()["error"]["message"]
    listed = [m["id"] for m in client.get("/v1/models").json()["data"]]
    ok = client.post("/v1/chat/completions", json={"model": listed[0], "messages": messages})
    assert ok.status_code == 200


@pytest.mark.parametrize("route", ["/chat/", "/chat/stream"])
def test_an_unknown_session_is_a_404_unless_the_client_asks_to_create_it(
    client: httpx.Client, route: str
) -> None:
    ask = {"message": "What is the default request timeout?", "session_id": f"typo{route[-2]}"}
    r = client.post(route, json=ask)
    assert r.status_code == 404 and "create_session" in r.json()["error"]
    assert client.get(f"/chat/history/{ask['session_id']}").status_code == 404  # none made
    assert client.post(route, json={**ask, "create_session": True}).status_code == 200
    assert client.post(route, json=ask).status_code == 200  # now it is live
    started = client.post("/chat/", json={"message": ask["message"]}).json()["session_id"]
    follow_up = client.post("/chat/", json={"message": "And uploads?", "session_id": started})
    assert follow_up.status_code == 200
