"""Groups, collection owners and grants: the SQL of `AuthStore`'s sharing half, as functions
over an `AuthDb`. Users are resolved (and their errors raised) by `AuthStore` first; group
and collection names are resolved here. Group names compare without case."""

from __future__ import annotations

import time
import uuid

from citewise.auth.db import AuthDb, all_rows, one
from citewise.auth.models import CollectionOwner, Grant, Group, Permission, valid_name
from citewise.errors import InputError, NotFoundError
from citewise.text.names import valid_collection_name

# -- groups --------------------------------------------------------------------------


def create_group(db: AuthDb, name: str) -> Group:
    if not valid_name(name):
        raise InputError(f"invalid group name {name!r}: letters, digits, '.', '_', '-'")
    with db.transaction() as conn:
        if conn.execute(
            "SELECT 1 FROM auth_groups WHERE lower(name) = lower(?)", (name,)
        ).fetchone():
            raise InputError(f"group '{name}' already exists")
        conn.execute(
            "INSERT INTO auth_groups(group_id, name, created_at) VALUES (?,?,?)",
            (uuid.uuid4().hex, name, time.time()),
        )
    return group(db, name)


def group_id(db: AuthDb, name: str) -> str:
    found = one(db, "SELECT group_id FROM auth_groups WHERE lower(name) = lower(?)", (name,))
    if found is None:
        raise NotFoundError(f"no group '{name}'")
    return str(found[0])


def group(db: AuthDb, name: str) -> Group:
    gid = group_id(db, name)
    row = one(db, "SELECT name FROM auth_groups WHERE group_id = ?", (gid,))
    members = all_rows(
        db,
        "SELECT u.username FROM auth_members m JOIN auth_users u ON u.user_id = m.user_id"
        " WHERE m.group_id = ? ORDER BY lower(u.username)",
        (gid,),
    )
    return Group(gid, str(row[0]), tuple(str(m[0]) for m in members))


def list_groups(db: AuthDb) -> list[Group]:
    names = all_rows(db, "SELECT name FROM auth_groups ORDER BY lower(name)")
    return [group(db, str(n[0])) for n in names]


def delete_group(db: AuthDb, name: str) -> None:
    gid = group_id(db, name)
    with db.transaction() as conn:
        conn.execute("DELETE FROM auth_groups WHERE group_id = ?", (gid,))


def set_member(db: AuthDb, gid: str, user_id: str, *, member: bool) -> None:
    with db.transaction() as conn:
        if member:
            conn.execute(
                "INSERT INTO auth_members(group_id, user_id) VALUES (?,?) ON CONFLICT DO NOTHING",
                (gid, user_id),
            )
        else:
            conn.execute(
                "DELETE FROM auth_members WHERE group_id = ? AND user_id = ?", (gid, user_id)
            )


# -- collections ---------------------------------------------------------------------


def check_collection_name(name: str) -> None:
    if not valid_collection_name(name):
        raise InputError(f"invalid collection name {name!r}: letters, digits, '-', '_', '.' (1-64)")


def create_collection(
    db: AuthDb, name: str, *, owner_user_id: str | None, owner_group: str | None
) -> CollectionOwner:
    """A collection owned by a user (id) or a group (name); the caller checked the name."""
    gid = group_id(db, owner_group) if owner_group else None
    with db.transaction() as conn:
        if conn.execute("SELECT 1 FROM auth_collections WHERE name = ?", (name,)).fetchone():
            raise InputError(f"collection '{name}' already exists")
        conn.execute(
            "INSERT INTO auth_collections(name, owner_user, owner_group, created_at)"
            " VALUES (?,?,?,?)",
            (name, owner_user_id, gid, time.time()),
        )
    return collection(db, name)


def collection(db: AuthDb, name: str) -> CollectionOwner:
    row = one(
        db,
        "SELECT c.name, u.username, g.name, c.created_at FROM auth_collections c"
        " LEFT JOIN auth_users u ON u.user_id = c.owner_user"
        " LEFT JOIN auth_groups g ON g.group_id = c.owner_group WHERE c.name = ?",
        (name,),
    )
    if row is None:
        raise NotFoundError(f"no collection '{name}'")
    return CollectionOwner(
        str(row[0]),
        None if row[1] is None else str(row[1]),
        None if row[2] is None else str(row[2]),
        float(row[3]),
    )


def list_collections(db: AuthDb) -> list[CollectionOwner]:
    names = all_rows(db, "SELECT name FROM auth_collections ORDER BY name")
    return [collection(db, str(n[0])) for n in names]


# -- grants --------------------------------------------------------------------------


def grant(
    db: AuthDb, collection: str, *, user_id: str | None, group_id: str | None,
    permission: Permission,
) -> None:  # fmt: skip
    """Grants `permission` on `collection` to one user or group (ids), replacing theirs."""
    with db.transaction() as conn:
        conn.execute(
            "DELETE FROM auth_grants WHERE collection = ? AND coalesce(user_id, '') = ?"
            " AND coalesce(group_id, '') = ?",
            (collection, user_id or "", group_id or ""),
        )
        conn.execute(
            "INSERT INTO auth_grants(collection, user_id, group_id, permission) VALUES (?,?,?,?)",
            (collection, user_id, group_id, permission),
        )


def revoke_grant(db: AuthDb, collection: str, *, user_id: str | None, group_id: str | None) -> None:
    with db.transaction() as conn:
        removed = conn.execute(
            "DELETE FROM auth_grants WHERE collection = ? AND coalesce(user_id, '') = ?"
            " AND coalesce(group_id, '') = ?",
            (collection, user_id or "", group_id or ""),
        ).rowcount
    if removed == 0:
        raise NotFoundError(f"no such grant on '{collection}'")


def list_grants(db: AuthDb, collection: str | None = None) -> list[Grant]:
    found = all_rows(
        db,
        "SELECT g.collection, u.username, gr.name, g.permission FROM auth_grants g"
        " LEFT JOIN auth_users u ON u.user_id = g.user_id"
        " LEFT JOIN auth_groups gr ON gr.group_id = g.group_id"
        " WHERE CAST(? AS TEXT) IS NULL OR g.collection = ?"
        " ORDER BY g.collection, lower(u.username), lower(gr.name)",
        (collection, collection),
    )
    return [
        Grant(
            str(r[0]),
            str(r[1] if r[1] is not None else r[2]),
            "user" if r[1] is not None else "group",
            "write" if r[3] == "write" else "read",
        )
        for r in found
    ]
