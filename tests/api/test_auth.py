"""Credentials against a real `citewise serve` on 127.0.0.1 that requires them:
401 for missing, wrong, forged, expired or revoked ones, 403 for a missing scope or role,
429 with Retry-After over the rate limit."""

from __future__ import annotations

import stat
import time
from collections.abc import Iterator

import httpx
import jwt
import pytest

from api.live_server import LiveServer, serve
from citewise.auth.passwords import hash_password
from citewise.auth.store import AuthStore

pytestmark = pytest.mark.integration
RATE_LIMIT = 40  # per minute, per user and per key


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("auth-data")
    store = AuthStore(data / "citewise.db")
    store.create_user("root", hash_password("root-password"), is_admin=True)
    store.create_user("bob", hash_password("bob-password"))
    store.close()
    env = {
        "CITEWISE_AUTH_REQUIRED": "true",
        "CITEWISE_RATE_LIMIT": f"{RATE_LIMIT}/minute",
        "CITEWISE_LOGIN_RATE_LIMIT": "100/minute",
    }
    with serve(data, env) as live:
        yield live


def _token(server: LiveServer, username: str, password: str) -> str:
    reply = httpx.post(
        f"{server.url}/auth/token", data={"username": username, "password": password}
    )
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["token_type"] == "bearer"
    return str(body["access_token"])


def _bearer(credential: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {credential}"}


def _key(server: LiveServer, token: str, scopes: list[str], **extra: object) -> dict[str, str]:
    reply = httpx.post(
        f"{server.url}/auth/keys", headers=_bearer(token), json={"scopes": scopes, **extra}
    )
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


PROTECTED = [
    ("GET", "/auth/me", None),
    ("POST", "/chat/", {"message": "What is the rotation policy?"}),
    ("POST", "/api/query", {"query": "What is the rotation policy?"}),
    ("POST", "/v1/chat/completions", {"messages": [{"role": "user", "content": "hi"}]}),
    ("GET", "/v1/models", None),
    ("GET", "/collections", None),
    ("GET", "/admin/users", None),
]


@pytest.mark.parametrize(("method", "path", "body"), PROTECTED)
def test_missing_credentials_get_401_everywhere(
    server: LiveServer, method: str, path: str, body: object
) -> None:
    reply = httpx.request(method, f"{server.url}{path}", json=body)
    assert reply.status_code == 401, reply.text
    assert reply.headers["www-authenticate"] == "Bearer"


def test_wrong_or_forged_credentials_get_401(server: LiveServer) -> None:
    url = server.url
    for username, password in (("bob", "not-bobs-password"), ("nobody", "bob-password")):
        reply = httpx.post(f"{url}/auth/token", data={"username": username, "password": password})
        assert reply.status_code == 401
    forged = jwt.encode(
        {"sub": "bob", "iat": int(time.time()), "exp": int(time.time()) + 60, "typ": "access"},
        "a-secret-that-is-not-the-servers-secret",
        "HS256",
    )
    for credential in (forged, "garbage", "cwk_000000000000_" + "A" * 43):
        assert httpx.get(f"{url}/auth/me", headers=_bearer(credential)).status_code == 401
    assert httpx.get(f"{url}/auth/me", headers={"X-API-Key": "cwk_nope"}).status_code == 401


def test_token_and_key_act_as_their_user(server: LiveServer) -> None:
    token = _token(server, "bob", "bob-password")
    me = httpx.get(f"{server.url}/auth/me", headers=_bearer(token)).json()
    assert (me["username"], me["via"], me["is_admin"]) == ("bob", "password", False)
    assert me["searches"] == ["user-bob", "default"]
    key = _key(server, token, ["read"])["key"]
    for headers in (_bearer(key), {"X-API-Key": key}):
        me = httpx.get(f"{server.url}/auth/me", headers=headers).json()
        assert (me["username"], me["via"], me["scopes"]) == ("bob", "api_key", ["read"])


def _expire(server: LiveServer, key_id: str) -> None:
    """Moves a key's expiry into the past in the server's database: no sleeping through a
    real expiry, whose timing a busy machine can miss."""
    store = AuthStore(server.data_dir / "citewise.db")
    with store.db.transaction() as conn:
        conn.execute(
            "UPDATE auth_keys SET expires_at = ? WHERE key_id = ?", (time.time() - 1, key_id)
        )
    store.close()


def test_expired_and_revoked_keys_get_401(server: LiveServer) -> None:
    token = _token(server, "bob", "bob-password")
    short = _key(server, token, ["read"], expires_in_days=1)
    assert httpx.get(f"{server.url}/auth/me", headers=_bearer(short["key"])).status_code == 200
    _expire(server, short["key_id"])
    reply = httpx.get(f"{server.url}/auth/me", headers=_bearer(short["key"]))
    assert reply.status_code == 401 and "expired" in reply.text
    kept = _key(server, token, ["read"])
    revoked = httpx.delete(f"{server.url}/auth/keys/{kept['key_id']}", headers=_bearer(token))
    assert revoked.status_code == 200 and revoked.json()["revoked"]
    reply = httpx.get(f"{server.url}/auth/me", headers=_bearer(kept["key"]))
    assert reply.status_code == 401 and "revoked" in reply.text
    listed = httpx.get(f"{server.url}/auth/keys", headers=_bearer(token)).json()
    assert {k["key_id"] for k in listed} >= {short["key_id"], kept["key_id"]}
    assert all("key" not in k for k in listed)  # the key itself is shown once only


def test_keys_without_the_scope_and_users_without_the_role_get_403(server: LiveServer) -> None:
    url = server.url
    bob = _token(server, "bob", "bob-password")
    read_only = _bearer(_key(server, bob, ["read"])["key"])
    assert httpx.get(f"{url}/collections", headers=read_only).status_code == 200
    reply = httpx.post(f"{url}/collections", headers=read_only, json={"name": "bobs-notes"})
    assert reply.status_code == 403 and "'write' scope" in reply.text
    assert httpx.get(f"{url}/admin/users", headers=_bearer(bob)).status_code == 403
    wider = httpx.post(f"{url}/auth/keys", headers=_bearer(bob), json={"scopes": ["admin"]})
    assert wider.status_code == 403
    write_only = _bearer(_key(server, bob, ["write"])["key"])
    reply = httpx.post(f"{url}/chat/", headers=write_only, json={"message": "hello"})
    assert reply.status_code == 403 and "'read' scope" in reply.text
    root = _token(server, "root", "root-password")
    admin_read = _bearer(_key(server, root, ["read"])["key"])  # an admin's key without 'admin'
    assert httpx.get(f"{url}/admin/users", headers=admin_read).status_code == 403
    users = httpx.get(f"{url}/admin/users", headers=_bearer(root)).json()
    assert [u["username"] for u in users] == ["bob", "root"]
    bobs = _key(server, bob, ["read"])
    listed = httpx.get(f"{url}/admin/users/bob/keys", headers=_bearer(root)).json()
    assert bobs["key_id"] in [k["key_id"] for k in listed]
    path = f"{url}/admin/users/bob/keys/{bobs['key_id']}"
    assert httpx.delete(path, headers=admin_read).status_code == 403
    assert httpx.delete(path, headers=_bearer(root)).json()["revoked"]
    assert httpx.get(f"{url}/auth/me", headers=_bearer(bobs["key"])).status_code == 401


def test_requests_over_the_rate_limit_get_429_with_retry_after(server: LiveServer) -> None:
    root = _token(server, "root", "root-password")
    made = httpx.post(
        f"{server.url}/admin/users", headers=_bearer(root),
        json={"username": "flood", "password": "flood-password"},
    )  # fmt: skip
    assert made.status_code == 201, made.text
    token = _bearer(_token(server, "flood", "flood-password"))
    with httpx.Client(base_url=server.url, headers=token) as client:
        codes = [client.get("/auth/me").status_code for _ in range(RATE_LIMIT + 1)]
        assert codes[:RATE_LIMIT] == [200] * RATE_LIMIT
        assert codes[-1] == 429
        reply = client.get("/auth/me")
    assert reply.status_code == 429
    assert 1 <= int(reply.headers["retry-after"]) <= 60
    other = _token(server, "bob", "bob-password")  # other users keep their own count
    assert httpx.get(f"{server.url}/auth/me", headers=_bearer(other)).status_code == 200


def test_the_token_secret_is_generated_and_kept_private(server: LiveServer) -> None:
    secret = server.data_dir / "secret_key"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert len(secret.read_text().strip()) >= 32


def test_admin_shares_a_tenant_collection_with_a_group(server: LiveServer) -> None:
    url, root = server.url, _bearer(_token(server, "root", "root-password"))
    assert httpx.post(f"{url}/admin/groups", headers=root, json={"name": "acme"}).status_code == 201
    assert httpx.put(f"{url}/admin/groups/acme/members/bob", headers=root).status_code == 200
    made = httpx.post(
        f"{url}/collections", headers=root, json={"name": "acme", "owner_group": "acme"}
    )
    assert made.status_code == 201, made.text
    bob = _bearer(_token(server, "bob", "bob-password"))
    names = {c["name"]: c for c in httpx.get(f"{url}/collections", headers=bob).json()}
    assert set(names) == {"acme", "user-bob", "default"}
    assert names["acme"]["may_write"] and not names["default"]["may_write"]
    reply = httpx.post(
        f"{url}/api/query", headers=bob, json={"query": "x", "collection": "user-root"}
    )
    assert reply.status_code == 403


def test_admin_manages_users_and_the_last_admin_stays(server: LiveServer) -> None:
    url, root = server.url, _bearer(_token(server, "root", "root-password"))
    made = httpx.post(
        f"{url}/admin/users", headers=root,
        json={"username": "temp", "password": "temp-password", "is_admin": True},
    )  # fmt: skip
    assert made.status_code == 201 and made.json()["home_collection"] == "user-temp"
    duplicate = httpx.post(
        f"{url}/admin/users", headers=root, json={"username": "TEMP", "password": "x" * 8}
    )
    assert duplicate.status_code == 400
    temp = _bearer(_token(server, "temp", "temp-password"))
    assert httpx.delete(f"{url}/admin/users/root", headers=temp).status_code == 200
    last = httpx.patch(f"{url}/admin/users/temp", headers=temp, json={"is_admin": False})
    assert last.status_code == 400 and "last admin" in last.text
    assert httpx.get(f"{url}/auth/me", headers=root).status_code == 401  # its user is gone
    renamed = httpx.patch(f"{url}/admin/users/temp", headers=temp, json={"password": "new-pass-1"})
    assert renamed.status_code == 200
    assert httpx.get(f"{url}/auth/me", headers=temp).status_code == 401  # older token void
    assert httpx.delete(f"{url}/admin/users/nobody", headers=root).status_code == 401
