"""`AuthStore`: users, API keys, groups, collection owners and grants over an `AuthDb`
(SQLite or PostgreSQL: the SQL is the same, written with `?` placeholders in what both
speak). Users and keys are here; the SQL of groups, collections and grants is in
`auth.sharing`. User and group names compare without case."""

from __future__ import annotations

import math
import time
import uuid
from pathlib import Path

from citewise.auth import sharing
from citewise.auth.api_keys import NewKey, new_key
from citewise.auth.backends.sqlite import SQLiteAuthDb
from citewise.auth.db import AuthDb, all_rows, one
from citewise.auth.models import (
    SCOPES,
    ApiKeyInfo,
    CollectionOwner,
    Grant,
    Group,
    Permission,
    User,
    valid_name,
)
from citewise.db.sql import SqlConn
from citewise.errors import InputError, NotFoundError

_USER_COLUMNS = (
    "user_id, username, is_admin, home_collection, created_at, password_hash, tokens_after"
)
_KEY_COLUMNS = "key_id, user_id, name, scopes, created_at, expires_at, revoked, digest"


# the collections a user reaches: owned by them or their groups, or granted to either
RIGHTS = """
WITH my_groups AS (SELECT group_id FROM auth_members WHERE user_id = ?)
SELECT c.name, 'write' FROM auth_collections c
 WHERE c.owner_user = ? OR c.owner_group IN (SELECT group_id FROM my_groups)
UNION
SELECT g.collection, g.permission FROM auth_grants g
 WHERE g.user_id = ? OR g.group_id IN (SELECT group_id FROM my_groups)
"""


def personal_collection(username: str) -> str:
    return f"user-{username.lower()}"


class AuthStore:
    """Thread-safe over any `AuthDb`; a path opens the SQLite file there."""

    def __init__(self, db: AuthDb | Path) -> None:
        self.db: AuthDb = SQLiteAuthDb(db) if isinstance(db, Path) else db

    def shared_secret(self) -> str | None:
        return self.db.shared_secret()

    def close(self) -> None:
        self.db.close()

    # -- users -----------------------------------------------------------------------

    def create_user(
        self, username: str, password_hash: str, *, is_admin: bool = False,
        home_collection: str | None = None,
    ) -> User:  # fmt: skip
        if not valid_name(username):
            raise InputError(
                f"invalid user name {username!r}: use letters, digits, '.', '_' or '-' (1-48)"
            )
        with self.db.transaction() as conn:
            if self.find_user(username) is not None:
                raise InputError(f"user '{username}' already exists")
            personal = self._free_collection_name(conn, personal_collection(username))
            user = User(
                user_id=uuid.uuid4().hex, username=username, is_admin=is_admin,
                home_collection=home_collection or personal, created_at=time.time(),
                password_hash=password_hash,
            )  # fmt: skip
            conn.execute(
                f"INSERT INTO auth_users({_USER_COLUMNS}) VALUES (?,?,?,?,?,?,?)",
                (user.user_id, username, int(is_admin), user.home_collection,
                 user.created_at, password_hash, 0),
            )  # fmt: skip
            # the personal collection always exists; a shared home (a tenant's) must already
            conn.execute(
                "INSERT INTO auth_collections(name, owner_user, created_at)"
                " VALUES (?,?,?) ON CONFLICT DO NOTHING",
                (personal, user.user_id, user.created_at),
            )
            if (
                home_collection is not None
                and not conn.execute(
                    "SELECT 1 FROM auth_collections WHERE name = ?", (home_collection,)
                ).fetchone()
            ):
                raise NotFoundError(f"no collection '{home_collection}': create it first")
        return user

    def _free_collection_name(self, conn: SqlConn, wanted: str) -> str:
        """`wanted`, or `wanted-2`, `-3`… when a deleted namesake's collection keeps it."""
        name, n = wanted, 1
        while conn.execute("SELECT 1 FROM auth_collections WHERE name = ?", (name,)).fetchone():
            n += 1
            name = f"{wanted}-{n}"
        return name

    def get_user(self, user_id: str) -> User | None:
        row = one(self.db, f"SELECT {_USER_COLUMNS} FROM auth_users WHERE user_id = ?", (user_id,))
        return _user(row) if row else None

    def find_user(self, username: str) -> User | None:
        row = one(
            self.db,
            f"SELECT {_USER_COLUMNS} FROM auth_users WHERE lower(username) = lower(?)",
            (username,),
        )
        return _user(row) if row else None

    def user(self, username: str) -> User:
        found = self.find_user(username)
        if found is None:
            raise NotFoundError(f"no user '{username}'")
        return found

    def list_users(self) -> list[User]:
        rows = all_rows(self.db, f"SELECT {_USER_COLUMNS} FROM auth_users ORDER BY lower(username)")
        return [_user(r) for r in rows]

    def delete_user(self, username: str) -> User:
        user = self.user(username)
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM auth_users WHERE user_id = ?", (user.user_id,))
        return user

    def update_user(
        self, username: str, *, password_hash: str | None = None, is_admin: bool | None = None,
        home_collection: str | None = None,
    ) -> User:  # fmt: skip
        user = self.user(username)
        with self.db.transaction() as conn:
            if password_hash is not None:  # tokens issued before stop working
                conn.execute(
                    "UPDATE auth_users SET password_hash = ?, tokens_after = ? WHERE user_id = ?",
                    # the resolution of a token's iat, so a token issued right after counts
                    (password_hash, math.floor(time.time() * 1000) / 1000, user.user_id),
                )
            if is_admin is not None:
                conn.execute(
                    "UPDATE auth_users SET is_admin = ? WHERE user_id = ?",
                    (int(is_admin), user.user_id),
                )
            if home_collection is not None:
                conn.execute(
                    "UPDATE auth_users SET home_collection = ? WHERE user_id = ?",
                    (home_collection, user.user_id),
                )
        return self.user(username)

    def count_admins(self) -> int:
        row = one(self.db, "SELECT count(*) FROM auth_users WHERE is_admin = 1")
        return int(row[0])

    def rights(self, user_id: str) -> tuple[frozenset[str], frozenset[str]]:
        """(readable, writable) collection names from ownership and grants, in one query."""
        rows = all_rows(self.db, RIGHTS, (user_id, user_id, user_id))
        readable = frozenset(str(r[0]) for r in rows)
        writable = frozenset(str(r[0]) for r in rows if r[1] == "write")
        return readable, writable

    # -- API keys --------------------------------------------------------------------

    def create_key(
        self, user_id: str, name: str, scopes: frozenset[str], expires_at: float | None
    ) -> tuple[NewKey, ApiKeyInfo]:
        unknown = scopes - set(SCOPES)
        if unknown or not scopes:
            raise InputError(f"scopes are some of {', '.join(SCOPES)}; got {sorted(scopes)}")
        if expires_at is not None and expires_at <= time.time():
            raise InputError("a key's expiry must be in the future")
        made = new_key()
        info = ApiKeyInfo(
            key_id=made.key_id, user_id=user_id, name=name[:100], scopes=scopes,
            created_at=time.time(), expires_at=expires_at, revoked=False, digest=made.digest,
        )  # fmt: skip
        with self.db.transaction() as conn:
            conn.execute(
                f"INSERT INTO auth_keys({_KEY_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)",
                (info.key_id, user_id, info.name, " ".join(sorted(scopes)), info.created_at,
                 expires_at, 0, made.digest),
            )  # fmt: skip
        return made, info

    def get_key(self, key_id: str) -> ApiKeyInfo | None:
        row = one(self.db, f"SELECT {_KEY_COLUMNS} FROM auth_keys WHERE key_id = ?", (key_id,))
        return _key(row) if row else None

    def list_keys(self, user_id: str) -> list[ApiKeyInfo]:
        rows = all_rows(
            self.db,
            f"SELECT {_KEY_COLUMNS} FROM auth_keys WHERE user_id = ? ORDER BY created_at",
            (user_id,),
        )
        return [_key(r) for r in rows]

    def revoke_key(self, user_id: str, key_id: str) -> ApiKeyInfo:
        """Revokes one of `user_id`'s keys (another user's key is as unknown as none)."""
        with self.db.transaction() as conn:
            changed = conn.execute(
                "UPDATE auth_keys SET revoked = 1 WHERE key_id = ? AND user_id = ?",
                (key_id, user_id),
            ).rowcount
        found = self.get_key(key_id)
        if changed == 0 or found is None:
            raise NotFoundError(f"no API key '{key_id}'")
        return found

    # -- groups ----------------------------------------------------------------------

    def create_group(self, name: str) -> Group:
        return sharing.create_group(self.db, name)

    def group(self, name: str) -> Group:
        return sharing.group(self.db, name)

    def list_groups(self) -> list[Group]:
        return sharing.list_groups(self.db)

    def delete_group(self, name: str) -> None:
        sharing.delete_group(self.db, name)

    def set_member(self, group: str, username: str, *, member: bool) -> Group:
        group_id, user = sharing.group_id(self.db, group), self.user(username)
        sharing.set_member(self.db, group_id, user.user_id, member=member)
        return self.group(group)

    # -- collections -----------------------------------------------------------------

    def create_collection(
        self, name: str, *, owner_user: str | None = None, owner_group: str | None = None
    ) -> CollectionOwner:
        """A collection owned by a user (username) or a group (name), exactly one of them."""
        sharing.check_collection_name(name)
        if (owner_user is None) == (owner_group is None):
            raise InputError("a collection is owned by one user or one group")
        user_id = self.user(owner_user).user_id if owner_user else None
        return sharing.create_collection(
            self.db, name, owner_user_id=user_id, owner_group=owner_group
        )

    def collection(self, name: str) -> CollectionOwner:
        return sharing.collection(self.db, name)

    def list_collections(self) -> list[CollectionOwner]:
        return sharing.list_collections(self.db)

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
        user_id, group_id = self._grantee(user, group)
        sharing.grant(
            self.db, collection, user_id=user_id, group_id=group_id, permission=permission
        )
        return Grant(collection, user or group or "", "user" if user else "group", permission)

    def revoke_grant(
        self, collection: str, *, user: str | None = None, group: str | None = None
    ) -> None:
        user_id, group_id = self._grantee(user, group)
        sharing.revoke_grant(self.db, collection, user_id=user_id, group_id=group_id)

    def list_grants(self, collection: str | None = None) -> list[Grant]:
        return sharing.list_grants(self.db, collection)

    def _grantee(self, user: str | None, group: str | None) -> tuple[str | None, str | None]:
        """(user id, group id) of a grant's user or group name."""
        user_id = self.user(user).user_id if user else None
        return user_id, sharing.group_id(self.db, group) if group else None


def _user(row: tuple[object, ...]) -> User:
    user_id, username, is_admin, home, created, password_hash, tokens_after = row
    return User(
        user_id=str(user_id), username=str(username), is_admin=bool(is_admin),
        home_collection=str(home), created_at=float(str(created)),
        password_hash=str(password_hash), tokens_after=float(str(tokens_after)),
    )  # fmt: skip


def _key(row: tuple[object, ...]) -> ApiKeyInfo:
    key_id, user_id, name, scopes, created, expires, revoked, key_digest = row
    return ApiKeyInfo(
        key_id=str(key_id), user_id=str(user_id), name=str(name),
        scopes=frozenset(str(scopes).split()), created_at=float(str(created)),
        expires_at=None if expires is None else float(str(expires)), revoked=bool(revoked),
        digest=str(key_digest),
    )  # fmt: skip
