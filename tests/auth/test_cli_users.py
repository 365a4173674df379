"""`citewise users …`: the first admin from the command line, keys, groups and grants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from typer.testing import CliRunner

from citewise.auth.service import AuthService
from citewise.cli import app
from citewise.services import make_user_store

if TYPE_CHECKING:
    from auth.conftest import SettingsMaker
    from citewise.config import Settings

runner = CliRunner()


def _service(settings: Settings) -> AuthService:
    return AuthService(settings, make_user_store(settings))


def _run(data: Path, *args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, ["users", *args, "--data-dir", str(data)], input=stdin)
    return result.exit_code, result.output


def test_first_admin_is_created_from_the_cli_and_can_log_in(
    tmp_path: Path, auth_settings: SettingsMaker
) -> None:
    code, out = _run(tmp_path, "create", "alice", "--admin", "--password-stdin",
                     stdin="alice-password\n")  # fmt: skip
    assert code == 0, out
    code, out = _run(tmp_path, "create", "alice", "--password-stdin", stdin="other-pass\n")
    assert code == 2 and "already exists" in out
    code, out = _run(tmp_path, "create", "bob", "--password-stdin", stdin="short\n")
    assert code == 2 and "at least 8" in out
    auth = _service(auth_settings())
    assert auth.login("alice", "alice-password").is_admin
    code, out = _run(tmp_path, "list", "--json")
    assert [u["username"] for u in json.loads(out)["users"]] == ["alice"]


def test_prompted_password_is_asked_twice(tmp_path: Path, auth_settings: SettingsMaker) -> None:
    code, out = _run(tmp_path, "create", "carol", stdin="carol-password\ncarol-password\n")
    assert code == 0, out
    code, out = _run(tmp_path, "set-password", "carol", "--password-stdin", stdin="new-pass-1\n")
    assert code == 0, out
    assert _service(auth_settings()).login("carol", "new-pass-1")


def test_keys_groups_and_grants_from_the_cli(tmp_path: Path, auth_settings: SettingsMaker) -> None:
    auth = _service(auth_settings())
    auth.store.create_user("bob", "")
    code, out = _run(tmp_path, "keys", "create", "bob", "--scope", "admin")
    assert code == 2 and "no admin" in out
    code, out = _run(tmp_path, "keys", "create", "bob", "--scope", "read", "--json")
    key = json.loads(out)["key"]
    assert auth.authenticate(key).scopes == {"read"}
    code, out = _run(tmp_path, "keys", "revoke", "bob", json.loads(out)["key_id"])
    assert code == 0, out
    assert _run(tmp_path, "groups", "create", "acme", "--collection", "acme-docs")[0] == 0
    assert _run(tmp_path, "groups", "add", "acme", "bob")[0] == 0
    assert _run(tmp_path, "grant", "user-bob", "--group", "acme")[0] == 0
    writable = auth.store.rights(auth.store.user("bob").user_id)[1]
    assert {"acme-docs", "user-bob"} <= writable
    code, out = _run(tmp_path, "delete", "bob")
    assert code == 0 and auth.store.find_user("bob") is None
