"""POST /auth/token (OAuth2 password form), who am I, and the caller's API keys."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Depends, status
from fastapi.security import OAuth2PasswordRequestForm
from pydantic import BaseModel, Field

from citewise.api.schemas import KeyOut, NewKeyOut
from citewise.api.security import AuthDep, CurrentPrincipal
from citewise.auth.access import readable_collections
from citewise.auth.models import READ, Principal
from citewise.auth.service import LOCAL_USER_ID
from citewise.errors import ForbiddenError, InputError

router = APIRouter(prefix="/auth", tags=["auth"])


class TokenOut(BaseModel):
    access_token: str
    token_type: str = "bearer"
    expires_in: int


class MeOut(BaseModel):
    user_id: str
    username: str
    is_admin: bool
    scopes: list[str]
    via: str
    home_collection: str
    searches: list[str] = Field(description="collections a question searches, in order")
    readable: list[str]


class KeyIn(BaseModel):
    name: str = Field(default="", max_length=100)
    scopes: list[str] = Field(default_factory=lambda: [READ])
    expires_in_days: float | None = Field(default=None, gt=0, le=3650)


@router.post("/token", response_model=TokenOut)
def token(form: Annotated[OAuth2PasswordRequestForm, Depends()], auth: AuthDep) -> TokenOut:
    auth.login_limits.hit(f"login:{form.username.lower()}")  # guesses at one user's password
    user = auth.login(form.username, form.password)
    return TokenOut(access_token=auth.issue_token(user), expires_in=int(auth.tokens.ttl_seconds))


@router.get("/me", response_model=MeOut)
def me(principal: CurrentPrincipal) -> MeOut:
    return MeOut(
        user_id=principal.user_id,
        username=principal.username,
        is_admin=principal.is_admin,
        scopes=sorted(principal.scopes),
        via=principal.via,
        home_collection=principal.home_collection,
        searches=readable_collections(principal, None),
        readable=sorted(principal.readable),
    )


def _user_id(principal: Principal) -> str:
    if principal.user_id == LOCAL_USER_ID:
        raise InputError("the local admin has no keys: create a user with `citewise users create`")
    return principal.user_id


@router.post("/keys", response_model=NewKeyOut, status_code=status.HTTP_201_CREATED)
def create_key(body: KeyIn, principal: CurrentPrincipal, auth: AuthDep) -> NewKeyOut:
    wanted = frozenset(body.scopes)
    if not wanted <= principal.scopes:  # a key never gets more than the credential making it
        extra = ", ".join(sorted(wanted - principal.scopes))
        raise ForbiddenError(f"cannot give a key scopes you lack: {extra}")
    expires = time.time() + body.expires_in_days * 86400 if body.expires_in_days else None
    made, info = auth.store.create_key(_user_id(principal), body.name, wanted, expires)
    return NewKeyOut(key=made.key, **KeyOut.of(info).model_dump())


@router.get("/keys", response_model=list[KeyOut])
def list_keys(principal: CurrentPrincipal, auth: AuthDep) -> list[KeyOut]:
    keys = auth.store.list_keys(_user_id(principal))
    return [KeyOut.of(k) for k in keys]


@router.delete("/keys/{key_id}", response_model=KeyOut)
def revoke_key(key_id: str, principal: CurrentPrincipal, auth: AuthDep) -> KeyOut:
    info = auth.store.revoke_key(_user_id(principal), key_id)
    return KeyOut.of(info)
