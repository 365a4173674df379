"""Who is asking and what they may touch: users, keys, groups, grants and the principal."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Via = Literal["local", "password", "api_key"]
Permission = Literal["read", "write"]

READ, WRITE, ADMIN = "read", "write", "admin"
SCOPES: tuple[str, ...] = (READ, WRITE, ADMIN)

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,47}$")


def valid_name(name: str) -> bool:
    """User and group names: letters, digits, '.', '_', '-' (1-48), so that the personal
    collection `user-<name>` is a valid collection name."""
    return bool(_NAME.match(name))


def user_scopes(is_admin: bool) -> frozenset[str]:
    """Everything a user's role allows; a key narrows it."""
    return frozenset(SCOPES if is_admin else (READ, WRITE))


@dataclass(frozen=True, slots=True)
class Principal:
    """The caller of one request, with the collections it may read and write resolved from
    ownership and grants when it authenticated."""

    user_id: str
    username: str
    is_admin: bool
    scopes: frozenset[str]
    via: Via
    home_collection: str = ""
    global_collection: str = ""
    readable: frozenset[str] = frozenset()
    writable: frozenset[str] = frozenset()
    key_id: str | None = None

    def may_read(self, collection: str) -> bool:
        return self.is_admin or collection in self.readable

    def may_write(self, collection: str) -> bool:
        return WRITE in self.scopes and (self.is_admin or collection in self.writable)


@dataclass(frozen=True, slots=True)
class User:
    user_id: str
    username: str
    is_admin: bool
    home_collection: str
    created_at: float
    password_hash: str = ""
    tokens_after: float = 0.0  # access tokens issued before this time are void

    def public(self) -> dict[str, object]:
        return {
            "user_id": self.user_id,
            "username": self.username,
            "is_admin": self.is_admin,
            "home_collection": self.home_collection,
            "created_at": self.created_at,
        }


@dataclass(frozen=True, slots=True)
class ApiKeyInfo:
    """A key as stored: never the key itself, only its lookup id and digest."""

    key_id: str
    user_id: str
    name: str
    scopes: frozenset[str]
    created_at: float
    expires_at: float | None
    revoked: bool
    digest: str = ""

    def expired(self, now: float) -> bool:
        return self.expires_at is not None and now >= self.expires_at

    def public(self) -> dict[str, object]:
        return {
            "key_id": self.key_id,
            "name": self.name,
            "scopes": sorted(self.scopes),
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "revoked": self.revoked,
        }


@dataclass(frozen=True, slots=True)
class Group:
    group_id: str
    name: str
    members: tuple[str, ...]  # usernames


@dataclass(frozen=True, slots=True)
class CollectionOwner:
    name: str
    owner_user: str | None  # username
    owner_group: str | None  # group name
    created_at: float


@dataclass(frozen=True, slots=True)
class Grant:
    collection: str
    grantee: str  # a username or a group name
    grantee_kind: Literal["user", "group"]
    permission: Permission
