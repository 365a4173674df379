"""Collections a caller may read, creating one, and granting it to a user or group."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, status
from pydantic import BaseModel

from citewise.api.security import AuthDep, CurrentPrincipal, Writer
from citewise.auth.models import CollectionOwner, Grant, Principal
from citewise.auth.service import AuthService
from citewise.errors import ForbiddenError, InputError

router = APIRouter(prefix="/collections", tags=["collections"])


class CollectionOut(BaseModel):
    name: str
    owner_user: str | None = None
    owner_group: str | None = None
    role: Literal["global", "home", "owner", "granted", "admin"]
    may_write: bool


class CollectionIn(BaseModel):
    name: str
    owner_group: str | None = None  # default: owned by the caller


class GrantIn(BaseModel):
    user: str | None = None
    group: str | None = None
    permission: Literal["read", "write"] = "read"


class GrantOut(BaseModel):
    collection: str
    grantee: str
    grantee_kind: Literal["user", "group"]
    permission: Literal["read", "write"]

    @classmethod
    def of(cls, grant: Grant) -> GrantOut:
        return cls(
            collection=grant.collection, grantee=grant.grantee,
            grantee_kind=grant.grantee_kind, permission=grant.permission,
        )  # fmt: skip


def _out(principal: Principal, owner: CollectionOwner | None, name: str) -> CollectionOut:
    if name == principal.global_collection:
        role: Literal["global", "home", "owner", "granted", "admin"] = "global"
    elif name == principal.home_collection:
        role = "home"
    elif (
        name in principal.writable
        and owner is not None
        and (owner.owner_user == principal.username or owner.owner_group is not None)
    ):
        role = "owner"
    elif name in principal.readable:
        role = "granted"
    else:
        role = "admin"
    return CollectionOut(
        name=name,
        owner_user=owner.owner_user if owner else None,
        owner_group=owner.owner_group if owner else None,
        role=role,
        may_write=principal.may_write(name),
    )


@router.get("", response_model=list[CollectionOut])
def list_collections(principal: CurrentPrincipal, auth: AuthDep) -> list[CollectionOut]:
    """Every collection the caller may read (an admin: every one known)."""
    owners = {c.name: c for c in auth.store.list_collections()}
    names = set(principal.readable) | {principal.home_collection, principal.global_collection}
    if principal.is_admin:
        names |= set(owners)
    return [_out(principal, owners.get(n), n) for n in sorted(n for n in names if n)]


@router.post("", response_model=CollectionOut, status_code=status.HTTP_201_CREATED)
def create_collection(body: CollectionIn, principal: Writer, auth: AuthDep) -> CollectionOut:
    if body.owner_group is not None:
        members = auth.store.group(body.owner_group).members
        if not principal.is_admin and principal.username not in members:
            raise ForbiddenError(f"you are not a member of '{body.owner_group}'")
        made = auth.store.create_collection(body.name, owner_group=body.owner_group)
    else:
        made = auth.store.create_collection(body.name, owner_user=principal.username)
    return CollectionOut(
        name=made.name, owner_user=made.owner_user, owner_group=made.owner_group,
        role="owner", may_write=True,
    )  # fmt: skip


def _owned_or_admin(principal: Principal, auth: AuthService, name: str) -> None:
    """Only an owner (the user, or a member of the owning group) or an admin shares."""
    if name == principal.global_collection:
        raise InputError("the global collection is readable by everyone already")
    owner = auth.store.collection(name)
    members = auth.store.group(owner.owner_group).members if owner.owner_group else ()
    if not (
        principal.is_admin
        or owner.owner_user == principal.username
        or principal.username in members
    ):
        raise ForbiddenError(f"only the owner of '{name}' or an admin shares it")


@router.get("/{name}/grants", response_model=list[GrantOut])
def list_grants(name: str, principal: Writer, auth: AuthDep) -> list[GrantOut]:
    _owned_or_admin(principal, auth, name)
    return [GrantOut.of(g) for g in auth.store.list_grants(name)]


@router.post("/{name}/grants", response_model=GrantOut, status_code=status.HTTP_201_CREATED)
def grant(name: str, body: GrantIn, principal: Writer, auth: AuthDep) -> GrantOut:
    _owned_or_admin(principal, auth, name)
    return GrantOut.of(
        auth.store.grant(name, user=body.user, group=body.group, permission=body.permission)
    )


@router.delete("/{name}/grants", status_code=status.HTTP_204_NO_CONTENT)
def revoke(
    name: str, principal: Writer, auth: AuthDep, user: str | None = None, group: str | None = None
) -> None:
    """Removes the grant to `?user=NAME` or `?group=NAME`."""
    _owned_or_admin(principal, auth, name)
    auth.store.revoke_grant(name, user=user, group=group)
