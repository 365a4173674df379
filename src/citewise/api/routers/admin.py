"""Admin only: users, groups and their members."""

from __future__ import annotations

from fastapi import APIRouter, status
from pydantic import BaseModel, Field

from citewise.api.schemas import KeyOut
from citewise.api.security import Admin, AuthDep
from citewise.auth.models import Group, User
from citewise.auth.passwords import hash_password
from citewise.auth.service import AuthService
from citewise.errors import InputError

router = APIRouter(prefix="/admin", tags=["admin"])


class UserIn(BaseModel):
    username: str
    password: str = Field(min_length=8, max_length=1024)
    is_admin: bool = False
    home_collection: str | None = Field(
        default=None, description="a shared (tenant) collection; default: user-<name>"
    )


class UserPatch(BaseModel):
    password: str | None = Field(default=None, min_length=8, max_length=1024)
    is_admin: bool | None = None
    home_collection: str | None = None


class UserOut(BaseModel):
    user_id: str
    username: str
    is_admin: bool
    home_collection: str
    created_at: float

    @classmethod
    def of(cls, user: User) -> UserOut:
        return cls(
            user_id=user.user_id, username=user.username, is_admin=user.is_admin,
            home_collection=user.home_collection, created_at=user.created_at,
        )  # fmt: skip


class GroupIn(BaseModel):
    name: str


class GroupOut(BaseModel):
    name: str
    members: list[str]

    @classmethod
    def of(cls, group: Group) -> GroupOut:
        return cls(name=group.name, members=list(group.members))


@router.get("/users", response_model=list[UserOut])
def list_users(_: Admin, auth: AuthDep) -> list[UserOut]:
    return [UserOut.of(u) for u in auth.store.list_users()]


@router.post("/users", response_model=UserOut, status_code=status.HTTP_201_CREATED)
def create_user(body: UserIn, _: Admin, auth: AuthDep) -> UserOut:
    user = auth.create_user(
        body.username, body.password, is_admin=body.is_admin,
        home_collection=body.home_collection,
    )  # fmt: skip
    return UserOut.of(user)


@router.patch("/users/{username}", response_model=UserOut)
def update_user(username: str, body: UserPatch, admin: Admin, auth: AuthDep) -> UserOut:
    if body.is_admin is False:
        _keep_an_admin(auth, username)
    if body.home_collection is not None:
        auth.store.collection(body.home_collection)
    user = auth.store.update_user(
        username,
        password_hash=hash_password(body.password) if body.password else None,
        is_admin=body.is_admin,
        home_collection=body.home_collection,
    )
    return UserOut.of(user)


@router.delete("/users/{username}", response_model=UserOut)
def delete_user(username: str, _: Admin, auth: AuthDep) -> UserOut:
    _keep_an_admin(auth, username)
    return UserOut.of(auth.store.delete_user(username))


@router.get("/users/{username}/keys", response_model=list[KeyOut])
def list_user_keys(username: str, _: Admin, auth: AuthDep) -> list[KeyOut]:
    return [KeyOut.of(k) for k in auth.store.list_keys(auth.store.user(username).user_id)]


@router.delete("/users/{username}/keys/{key_id}", response_model=KeyOut)
def revoke_user_key(username: str, key_id: str, _: Admin, auth: AuthDep) -> KeyOut:
    """Revokes a user's key (a lost laptop, a leaked CI secret)."""
    return KeyOut.of(auth.store.revoke_key(auth.store.user(username).user_id, key_id))


def _keep_an_admin(auth: AuthService, username: str) -> None:
    user = auth.store.user(username)
    if user.is_admin and auth.store.count_admins() == 1:
        raise InputError(f"'{username}' is the last admin: make another admin first")


@router.get("/groups", response_model=list[GroupOut])
def list_groups(_: Admin, auth: AuthDep) -> list[GroupOut]:
    return [GroupOut.of(g) for g in auth.store.list_groups()]


@router.post("/groups", response_model=GroupOut, status_code=status.HTTP_201_CREATED)
def create_group(body: GroupIn, _: Admin, auth: AuthDep) -> GroupOut:
    return GroupOut.of(auth.store.create_group(body.name))


@router.delete("/groups/{name}", status_code=status.HTTP_204_NO_CONTENT)
def delete_group(name: str, _: Admin, auth: AuthDep) -> None:
    auth.store.delete_group(name)


@router.put("/groups/{name}/members/{username}", response_model=GroupOut)
def add_member(name: str, username: str, _: Admin, auth: AuthDep) -> GroupOut:
    return GroupOut.of(auth.store.set_member(name, username, member=True))


@router.delete("/groups/{name}/members/{username}", response_model=GroupOut)
def remove_member(name: str, username: str, _: Admin, auth: AuthDep) -> GroupOut:
    return GroupOut.of(auth.store.set_member(name, username, member=False))
