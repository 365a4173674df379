"""`citewise users keys|groups|grant …`."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer

from citewise.cli import DataDir, JsonFlag
from citewise.cli_users import Username, _with_store, groups_app, keys_app, users_app


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

    def action(store: Any) -> Any:
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

    def action(store: Any) -> Any:
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

    def action(store: Any) -> Any:
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

    def action(store: Any) -> Any:
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

    def action(store: Any) -> Any:
        group = None
        for username in usernames:
            group = store.set_member(name, username, member=True)
        members = list(group.members) if group else []
        return {"group": name, "members": members} if as_json else f"{name}: {', '.join(members)}"

    _with_store(data_dir, as_json, action)


@groups_app.command("list")
def group_list(data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """Groups and their members."""

    def action(store: Any) -> Any:
        groups = store.list_groups()
        if as_json:
            return {"groups": [{"name": g.name, "members": list(g.members)} for g in groups]}
        return [f"{g.name}\t{', '.join(g.members)}" for g in groups]

    _with_store(data_dir, as_json, action)


@users_app.command("grant")
def grant(
    collection: str,
    user: Annotated[str | None, typer.Option(help="Grant to this user.")] = None,
    group: Annotated[str | None, typer.Option(help="Grant to this group.")] = None,
    write: Annotated[bool, typer.Option("--write", help="Read and write, not only read.")] = False,
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Let a user or a group read (or write) a collection."""

    def action(store: Any) -> Any:
        made = store.grant(
            collection, user=user, group=group, permission="write" if write else "read"
        )
        if as_json:
            return {"collection": made.collection, "grantee": made.grantee,
                    "kind": made.grantee_kind, "permission": made.permission}  # fmt: skip
        return f"{made.grantee_kind} {made.grantee} may {made.permission} {made.collection}"

    _with_store(data_dir, as_json, action)
