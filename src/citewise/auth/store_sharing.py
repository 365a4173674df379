"""Groups, collection owners and grants; `AuthStore` is the whole user/key/group/grant store."""

from __future__ import annotations

import time
import uuid

from citewise.auth.models import CollectionOwner, Grant, Group, Permission, valid_name
from citewise.auth.store import UserStore
from citewise.errors import InputError, NotFoundError


def valid_collection(name: str) -> bool:
    return 0 < len(name) <= 64 and all(c.isalnum() or c in "-_." for c in name)


class AuthStore(UserStore):
    # -- groups ----------------------------------------------------------------------

    def create_group(self, name: str) -> Group:
        if not valid_name(name):
            raise InputError(f"invalid group name {name!r}: letters, digits, '.', '_', '-'")
        with self._tx() as conn:
            if conn.execute(
                "SELECT 1 FROM auth_groups WHERE lower(name) = lower(?)", (name,)
            ).fetchone():
                raise InputError(f"group '{name}' already exists")
            conn.execute(
                "INSERT INTO auth_groups(group_id, name, created_at) VALUES (?,?,?)",
                (uuid.uuid4().hex, name, time.time()),
            )
        return self.group(name)

    def _group_id(self, name: str) -> str:
        found = self._one("SELECT group_id FROM auth_groups WHERE lower(name) = lower(?)", (name,))
        if found is None:
            raise NotFoundError(f"no group '{name}'")
        return str(found[0])

    def group(self, name: str) -> Group:
        group_id = self._group_id(name)
        row = self._one("SELECT name FROM auth_groups WHERE group_id = ?", (group_id,))
        members = self._all(
            "SELECT u.username FROM auth_members m JOIN auth_users u ON u.user_id = m.user_id"
            " WHERE m.group_id = ? ORDER BY lower(u.username)",
            (group_id,),
        )
        return Group(group_id, str(row[0]), tuple(str(m[0]) for m in members))

    def list_groups(self) -> list[Group]:
        names = self._all("SELECT name FROM auth_groups ORDER BY lower(name)")
        return [self.group(str(n[0])) for n in names]

    def delete_group(self, name: str) -> None:
        group_id = self._group_id(name)
        with self._tx() as conn:
            conn.execute("DELETE FROM auth_groups WHERE group_id = ?", (group_id,))

    def set_member(self, group: str, username: str, *, member: bool) -> Group:
        group_id, user = self._group_id(group), self.user(username)
        with self._tx() as conn:
            if member:
                conn.execute(
                    "INSERT INTO auth_members(group_id, user_id) VALUES (?,?)"
                    " ON CONFLICT DO NOTHING",
                    (group_id, user.user_id),
                )
            else:
                conn.execute(
                    "DELETE FROM auth_members WHERE group_id = ? AND user_id = ?",
                    (group_id, user.user_id),
                )
        return self.group(group)

    # -- collections -----------------------------------------------------------------

    def create_collection(
        self, name: str, *, owner_user: str | None = None, owner_group: str | None = None
    ) -> CollectionOwner:
        """A collection owned by a user (username) or a group (name), exactly one of them."""
        if not valid_collection(name):
            raise InputError(
                f"invalid collection name {name!r}: letters, digits, '-', '_', '.' (1-64)"
            )
        if (owner_user is None) == (owner_group is None):
            raise InputError("a collection is owned by one user or one group")
        user_id = self.user(owner_user).user_id if owner_user else None
        group_id = self._group_id(owner_group) if owner_group else None
        with self._tx() as conn:
            if conn.execute("SELECT 1 FROM auth_collections WHERE name = ?", (name,)).fetchone():
                raise InputError(f"collection '{name}' already exists")
            conn.execute(
                "INSERT INTO auth_collections(name, owner_user, owner_group, created_at)"
                " VALUES (?,?,?,?)",
                (name, user_id, group_id, time.time()),
            )
        return self.collection(name)

    def collection(self, name: str) -> CollectionOwner:
        row = self._one(
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

    def list_collections(self) -> list[CollectionOwner]:
        names = self._all("SELECT name FROM auth_collections ORDER BY name")
        return [self.collection(str(n[0])) for n in names]

    # -- grants ----------------------------------------------------------------------

    def grant(
        self, collection: str, *, user: str | None = None, group: str | None = None,
        permission: Permission = "read",
    ) -> Grant:  # fmt: skip
        if (user is None) == (group is None):
            raise InputError("a grant names one user or one group")
        if permission not in ("read", "write"):
            raise InputError("a grant's permission is 'read' or 'write'")
        self.collection(collection)
        user_id = self.user(user).user_id if user else None
        group_id = self._group_id(group) if group else None
        with self._tx() as conn:
            conn.execute(
                "DELETE FROM auth_grants WHERE collection = ? AND coalesce(user_id, '') = ?"
                " AND coalesce(group_id, '') = ?",
                (collection, user_id or "", group_id or ""),
            )
            conn.execute(
                "INSERT INTO auth_grants(collection, user_id, group_id, permission)"
                " VALUES (?,?,?,?)",
                (collection, user_id, group_id, permission),
            )
        return Grant(collection, user or group or "", "user" if user else "group", permission)

    def revoke_grant(
        self, collection: str, *, user: str | None = None, group: str | None = None
    ) -> None:
        user_id = self.user(user).user_id if user else None
        group_id = self._group_id(group) if group else None
        with self._tx() as conn:
            removed = conn.execute(
                "DELETE FROM auth_grants WHERE collection = ? AND coalesce(user_id, '') = ?"
                " AND coalesce(group_id, '') = ?",
                (collection, user_id or "", group_id or ""),
            ).rowcount
        if removed == 0:
            raise NotFoundError(f"no such grant on '{collection}'")

    def list_grants(self, collection: str | None = None) -> list[Grant]:
        rows = self._all(
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
            for r in rows
        ]
