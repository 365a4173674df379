"""`citewise users …`: accounts, groups, grants and API keys, straight on the data dir's
store (the first admin is made here, before any server runs)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from citewise.cli.common import DataDir, JsonFlag, open_assistant, run_command

if TYPE_CHECKING:
    from citewise.auth.store import AuthStore

app = typer.Typer(help="Users, groups, grants and API keys.", no_args_is_help=True)
keys_app = typer.Typer(help="A user's API keys.", no_args_is_help=True)
groups_app = typer.Typer(
    help="Groups of users that own or share collections.", no_args_is_help=True
)
# what an action returns: JSON with --json, else one message (stderr) or lines (stdout)
Output = str | list[str] | dict[str, Any]

Username = Annotated[str, typer.Argument(help="Letters, digits, '.', '_' or '-'.")]
PasswordStdin = Annotated[
    bool, typer.Option("--password-stdin", help="Read the password from stdin (scripts).")
]


def _with_store(
    data_dir: Path | None, as_json: bool, action: Callable[[AuthStore], Output]
) -> None:
    from citewise.cli.render.tables import err_console, print_json

    def run() -> None:
        with open_assistant(data_dir, None) as assistant:
            result = action(assistant.users)
        if as_json:
            print_json(result)
        elif isinstance(result, str):
            err_console.print(result, highlight=False)
        else:
            for line in result:
                typer.echo(line)

    run_command(as_json, run)


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    password: str = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    return password


@app.command("create")
def create(
    username: Username,
    admin: Annotated[
        bool, typer.Option("--admin", help="May manage users and every collection.")
    ] = False,
    home: Annotated[
        str | None, typer.Option("--home", help="A shared (tenant) collection as own collection.")
    ] = None,
    password_stdin: PasswordStdin = False,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Create a user; asks for the password (twice) unless --password-stdin."""
    from citewise.auth.passwords import hash_password

    password = _password(password_stdin)

    def action(store: AuthStore) -> Output:
        user = store.create_user(
            username, hash_password(password), is_admin=admin, home_collection=home
        )
        if as_json:
            return user.public()
        role = "admin" if user.is_admin else "user"
        return f"created {role} {user.username} (own collection: {user.home_collection})"

    _with_store(data_dir, as_json, action)


@app.command("list")
def list_users(data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """List the users."""

    def action(store: AuthStore) -> Output:
        users = store.list_users()
        if as_json:
            return {"users": [u.public() for u in users]}
        return [
            f"{u.username}\t{'admin' if u.is_admin else 'user'}\t{u.home_collection}" for u in users
        ]

    _with_store(data_dir, as_json, action)


@app.command("delete")
def delete(username: Username, data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """Delete a user with their keys and grants (their documents stay, for an admin)."""

    def action(store: AuthStore) -> Output:
        user = store.delete_user(username)
        return {"deleted": user.username} if as_json else f"deleted {user.username}"

    _with_store(data_dir, as_json, action)


@app.command("set-password")
def set_password(
    username: Username,
    password_stdin: PasswordStdin = False,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Replace a user's password."""
    from citewise.auth.passwords import hash_password

    password = _password(password_stdin)

    def action(store: AuthStore) -> Output:
        user = store.update_user(username, password_hash=hash_password(password))
        return {"updated": user.username} if as_json else f"new password for {user.username}"

    _with_store(data_dir, as_json, action)


@app.command("set-admin")
def set_admin(
    username: Username,
    revoke: Annotated[bool, typer.Option("--revoke", help="Take the admin role away.")] = False,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Give (or with --revoke take away) the admin role."""

    def action(store: AuthStore) -> Output:
        user = store.update_user(username, is_admin=not revoke)
        return user.public() if as_json else f"{user.username}: admin={user.is_admin}"

    _with_store(data_dir, as_json, action)


@keys_app.command("create")
def key_create(
    username: Username,
    scope: Annotated[
        list[str] | None, typer.Option("--scope", help="read | write | admin (repeatable).")
    ] = None,
    name: Annotated[str, typer.Option(help="A label to recognise the key by.")] = "",
    expires_days: Annotated[
        float | None, typer.Option("--expires-days", help="Lifetime; default: no expiry.")
    ] = None,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Create an API key acting as USERNAME; the key is printed once."""
    from citewise.auth.models import user_scopes
    from citewise.errors import InputError

    def action(store: AuthStore) -> Output:
        user = store.user(username)
        scopes = frozenset(scope or ["read"])
        if not scopes <= user_scopes(user.is_admin):
            raise InputError(f"{username} is no admin: a key of theirs cannot have 'admin'")
        expires = time.time() + expires_days * 86400 if expires_days else None
        made, info = store.create_key(user.user_id, name, scopes, expires)
        if as_json:
            return {"key": made.key, **info.public()}
        return [made.key]

    _with_store(data_dir, as_json, action)


@keys_app.command("list")
def key_list(username: Username, data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """A user's keys (never the keys themselves)."""

    def action(store: AuthStore) -> Output:
        keys = store.list_keys(store.user(username).user_id)
        if as_json:
            return {"keys": [k.public() for k in keys]}
        now = time.time()
        return [
            f"{k.key_id}\t{','.join(sorted(k.scopes))}\t{k.name}\t"
            + ("revoked" if k.revoked else "expired" if k.expired(now) else "active")
            for k in keys
        ]

    _with_store(data_dir, as_json, action)


@keys_app.command("revoke")
def key_revoke(
    username: Username, key_id: str, data_dir: DataDir = None, as_json: JsonFlag = False
) -> None:
    """Revoke one of a user's keys by its id (`keys list`)."""

    def action(store: AuthStore) -> Output:
        info = store.revoke_key(store.user(username).user_id, key_id)
        return info.public() if as_json else f"revoked {info.key_id}"

    _with_store(data_dir, as_json, action)


@groups_app.command("create")
def group_create(
    name: str,
    collection: Annotated[
        str | None, typer.Option(help="Also create this collection, owned by the group.")
    ] = None,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Create a group (a tenant), optionally with the collection it owns."""

    def action(store: AuthStore) -> Output:
        group = store.create_group(name)
        if collection:
            store.create_collection(collection, owner_group=group.name)
        return {"group": group.name, "collection": collection} if as_json else f"created {name}"

    _with_store(data_dir, as_json, action)


@groups_app.command("add")
def group_add(
    name: str, usernames: list[str], data_dir: DataDir = None, as_json: JsonFlag = False
) -> None:
    """Add users to a group."""

    def action(store: AuthStore) -> Output:
        group = None
        for username in usernames:
            group = store.set_member(name, username, member=True)
        members = list(group.members) if group else []
        return {"group": name, "members": members} if as_json else f"{name}: {', '.join(members)}"

    _with_store(data_dir, as_json, action)


@groups_app.command("list")
def group_list(data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """Groups and their members."""

    def action(store: AuthStore) -> Output:
        groups = store.list_groups()
        if as_json:
            return {"groups": [{"name": g.name, "members": list(g.members)} for g in groups]}
        return [f"{g.name}\t{', '.join(g.members)}" for g in groups]

    _with_store(data_dir, as_json, action)


@app.command("grant")
def grant(
    collection: str,
    user: Annotated[str | None, typer.Option(help="Grant to this user.")] = None,
    group: Annotated[str | None, typer.Option(help="Grant to this group.")] = None,
    write: Annotated[bool, typer.Option("--write", help="Read and write, not only read.")] = False,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Let a user or a group read (or write) a collection."""

    def action(store: AuthStore) -> Output:
        made = store.grant(
            collection, user=user, group=group, permission="write" if write else "read"
        )
        if as_json:
            return {"collection": made.collection, "grantee": made.grantee,
                    "kind": made.grantee_kind, "permission": made.permission}  # fmt: skip
        return f"{made.grantee_kind} {made.grantee} may {made.permission} {made.collection}"

    _with_store(data_dir, as_json, action)


app.add_typer(keys_app, name="keys")
app.add_typer(groups_app, name="groups")
