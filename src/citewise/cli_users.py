"""`citewise users …`: accounts, groups, grants and API keys, straight on the data dir's
store (the first admin is made here, before any server runs)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from citewise.cli import DataDir, JsonFlag, _run, app

users_app = typer.Typer(help="Users, groups, grants and API keys.", no_args_is_help=True)
keys_app = typer.Typer(help="A user's API keys.", no_args_is_help=True)
groups_app = typer.Typer(
    help="Groups of users that own or share collections.", no_args_is_help=True
)
app.add_typer(users_app, name="users")
users_app.add_typer(keys_app, name="keys")
users_app.add_typer(groups_app, name="groups")

Username = Annotated[str, typer.Argument(help="Letters, digits, '.', '_' or '-'.")]
PasswordStdin = Annotated[
    bool, typer.Option("--password-stdin", help="Read the password from stdin (scripts).")
]


def _store(data_dir: Path | None) -> Any:
    from citewise.auth.backends import open_auth_db
    from citewise.auth.store import AuthStore
    from citewise.config import load_settings

    return AuthStore(open_auth_db(load_settings(data_dir=data_dir)))


def _with_store(data_dir: Path | None, as_json: bool, action: Callable[[Any], Any]) -> None:
    from citewise.cli_render import err_console, print_json

    def run() -> None:
        store = _store(data_dir)
        try:
            result = action(store)
        finally:
            store.close()
        if as_json:
            print_json(result)
        elif isinstance(result, str):
            err_console.print(result, highlight=False)
        else:
            for line in result:
                typer.echo(line)

    _run(as_json, run)


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    password: str = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    return password


@users_app.command("create")
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

    def action(store: Any) -> Any:
        user = store.create_user(
            username, hash_password(password), is_admin=admin, home_collection=home
        )
        if as_json:
            return user.public()
        role = "admin" if user.is_admin else "user"
        return f"created {role} {user.username} (own collection: {user.home_collection})"

    _with_store(data_dir, as_json, action)


@users_app.command("list")
def list_users(data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """List the users."""

    def action(store: Any) -> Any:
        users = store.list_users()
        if as_json:
            return {"users": [u.public() for u in users]}
        return [
            f"{u.username}\t{'admin' if u.is_admin else 'user'}\t{u.home_collection}" for u in users
        ]

    _with_store(data_dir, as_json, action)


@users_app.command("delete")
def delete(username: Username, data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """Delete a user with their keys and grants (their documents stay, for an admin)."""

    def action(store: Any) -> Any:
        user = store.delete_user(username)
        return {"deleted": user.username} if as_json else f"deleted {user.username}"

    _with_store(data_dir, as_json, action)


@users_app.command("set-password")
def set_password(
    username: Username,
    password_stdin: PasswordStdin = False,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Replace a user's password."""
    from citewise.auth.passwords import hash_password

    password = _password(password_stdin)

    def action(store: Any) -> Any:
        user = store.update_user(username, password_hash=hash_password(password))
        return {"updated": user.username} if as_json else f"new password for {user.username}"

    _with_store(data_dir, as_json, action)


@users_app.command("set-admin")
def set_admin(
    username: Username,
    revoke: Annotated[bool, typer.Option("--revoke", help="Take the admin role away.")] = False,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Give (or with --revoke take away) the admin role."""

    def action(store: Any) -> Any:
        user = store.update_user(username, is_admin=not revoke)
        return user.public() if as_json else f"{user.username}: admin={user.is_admin}"

    _with_store(data_dir, as_json, action)


from citewise import cli_users_keys  # noqa: E402,F401  (registers keys, groups, grant)
