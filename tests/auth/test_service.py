"""Authentication: credentials to a principal, loopback without auth, scopes, rate limits."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from citewise.auth.access import chat_collection, readable_collections, writable_collection
from citewise.auth.passwords import hash_password
from citewise.auth.service import AuthService, is_loopback
from citewise.errors import AuthError, ForbiddenError, RateLimitedError
from citewise.services import make_user_store

if TYPE_CHECKING:
    from auth.conftest import SettingsMaker


def _service(
    auth_settings: SettingsMaker, *, clock: Callable[[], float] = time.time, **settings: object
) -> AuthService:
    s = auth_settings(**settings)
    made = AuthService(s, make_user_store(s), clock=clock)
    # no argon2 run where the password plays no part (about a second each on 2 busy cores)
    made.store.create_user("alice", "", is_admin=True)
    made.store.create_user("bob", "")
    return made


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("::1", True), ("localhost", True), ("0.0.0.0", False),
     ("192.168.1.5", False), ("example.org", False)],
)  # fmt: skip
def test_only_loopback_addresses_count_as_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_loopback_server_without_credentials_serves_the_local_admin(
    auth_settings: SettingsMaker,
) -> None:
    local = _service(auth_settings).authenticate(None)
    assert local.via == "local" and local.is_admin
    assert readable_collections(local, None) == ["default"]


@pytest.mark.parametrize("settings", [{"host": "0.0.0.0"}, {"auth_required": True}])
def test_credentials_are_required_off_loopback_or_when_asked(
    auth_settings: SettingsMaker, settings: dict[str, object]
) -> None:
    with pytest.raises(AuthError, match="not authenticated"):
        _service(auth_settings, **settings).authenticate(None)


def test_password_token_acts_as_its_user(auth_settings: SettingsMaker) -> None:
    auth = _service(auth_settings, auth_required=True)
    auth.store.update_user("bob", password_hash=hash_password("bob-password"))
    with pytest.raises(AuthError):
        auth.login("bob", "wrong-password")
    with pytest.raises(AuthError):
        auth.login("nobody", "bob-password")
    bob = auth.authenticate(auth.issue_token(auth.login("bob", "bob-password")))
    assert (bob.username, bob.via, bob.is_admin) == ("bob", "password", False)
    assert bob.scopes == {"read", "write"}
    assert readable_collections(bob, None) == ["user-bob", "default"]


def test_a_new_password_voids_older_tokens(auth_settings: SettingsMaker) -> None:
    auth = _service(auth_settings)
    bob = auth.store.user("bob")
    old = auth.tokens.issue(bob.user_id, now=time.time() - 5)
    assert auth.authenticate(old).username == "bob"
    auth.store.update_user("bob", password_hash="changed")
    with pytest.raises(AuthError, match="log in again"):
        auth.authenticate(old)
    assert auth.authenticate(auth.issue_token(bob)).username == "bob"


def test_password_attempts_per_user_name_are_limited(auth_settings: SettingsMaker) -> None:
    auth = _service(auth_settings, login_rate_limit="2/minute")
    auth.login_limits.hit("login:bob")
    auth.login_limits.hit("login:bob")
    with pytest.raises(RateLimitedError):
        auth.login_limits.hit("login:bob")
    auth.login_limits.hit("login:alice")


def test_api_key_acts_as_its_user_within_its_scopes_and_role(auth_settings: SettingsMaker) -> None:
    auth = _service(auth_settings)
    alice = auth.store.user("alice")
    made, _ = auth.store.create_key(alice.user_id, "", frozenset({"read", "admin"}), None)
    principal = auth.authenticate(made.key)
    assert principal.via == "api_key" and principal.is_admin
    assert principal.scopes == {"read", "admin"}
    with pytest.raises(ForbiddenError):
        auth.require(principal, "write")
    auth.store.update_user("alice", is_admin=False)  # a demoted user's key loses admin
    assert auth.authenticate(made.key).scopes == {"read"}
    assert not auth.authenticate(made.key).is_admin


def test_expired_revoked_and_altered_keys_are_refused(auth_settings: SettingsMaker) -> None:
    now = [time.time()]
    auth = _service(auth_settings, clock=lambda: now[0])
    bob = auth.store.user("bob")
    made, _ = auth.store.create_key(bob.user_id, "", frozenset({"read"}), now[0] + 60)
    assert auth.authenticate(made.key).username == "bob"
    with pytest.raises(AuthError, match="invalid API key"):
        auth.authenticate(made.key[:-2] + "xx")
    now[0] += 59.9
    assert auth.authenticate(made.key).username == "bob"
    now[0] += 0.1
    with pytest.raises(AuthError, match="expired"):
        auth.authenticate(made.key)
    other, _ = auth.store.create_key(bob.user_id, "", frozenset({"read"}), None)
    auth.store.revoke_key(bob.user_id, other.key_id)
    with pytest.raises(AuthError, match="revoked"):
        auth.authenticate(other.key)


def test_rate_limit_counts_per_user_and_per_key(auth_settings: SettingsMaker) -> None:
    auth = _service(auth_settings, rate_limit="3/minute")
    bob = auth.store.user("bob")
    token = auth.issue_token(bob)
    made, _ = auth.store.create_key(bob.user_id, "", frozenset({"read"}), None)
    for _ in range(3):
        auth.authenticate(token)
    with pytest.raises(RateLimitedError) as caught:
        auth.authenticate(token)
    assert 1 <= caught.value.retry_after <= 60
    auth.authenticate(made.key)  # the key has its own count
    alice = auth.issue_token(auth.store.user("alice"))
    auth.authenticate(alice)  # and so has every other user


def test_requested_collection_needs_a_right_and_chat_documents_come_first(
    auth_settings: SettingsMaker,
) -> None:
    auth = _service(auth_settings)
    auth.store.create_group("acme")
    auth.store.create_collection("acme", owner_group="acme")
    auth.store.set_member("acme", "bob", member=True)
    bob = auth.from_token(auth.issue_token(auth.store.user("bob")))
    alice = auth.from_token(auth.issue_token(auth.store.user("alice")))
    assert readable_collections(bob, "acme") == ["acme", "default"]
    assert readable_collections(bob, "default") == ["default"]
    with pytest.raises(ForbiddenError):
        readable_collections(bob, "user-alice")
    assert readable_collections(alice, "user-bob") == ["user-bob", "default"]  # an admin
    in_chat = readable_collections(bob, None, chat_id="c1")
    assert in_chat == [chat_collection(bob, "c1"), "user-bob", "default"]
    assert chat_collection(alice, "c1") != chat_collection(bob, "c1")
    assert writable_collection(bob, None) == "user-bob"
    auth.store.update_user("bob", home_collection="acme")
    auth.store.set_member("acme", "bob", member=False)  # bob leaves the tenant
    bob = auth.from_token(auth.issue_token(auth.store.user("bob")))
    assert bob.home_collection == ""  # so no route falls back to it
    assert readable_collections(bob, None) == ["default"]
    with pytest.raises(ForbiddenError):
        writable_collection(bob, None)
    with pytest.raises(ForbiddenError):
        writable_collection(bob, "default")  # only admins write the global collection
