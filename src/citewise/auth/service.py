"""Authentication: credentials in, a `Principal` with its collections resolved out."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable

from citewise.auth import api_keys
from citewise.auth.models import ADMIN, Principal, User, user_scopes
from citewise.auth.passwords import hash_password, verify_password
from citewise.auth.ratelimit import RateLimits
from citewise.auth.store import AuthStore
from citewise.auth.tokens import TokenCodec, load_or_create_secret
from citewise.config import Settings
from citewise.errors import AuthError, ForbiddenError

LOCAL_USER_ID = "local"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name other than localhost may resolve anywhere
        return False


def auth_required(settings: Settings) -> bool:
    """Credentials are required unless `serve` binds to loopback and nobody asked for them."""
    return settings.auth_required or not is_loopback(settings.host)


class AuthService:
    """`clock` (seconds since the epoch) decides when an API key has expired; injectable so
    tests need not sleep."""

    def __init__(
        self,
        settings: Settings,
        store: AuthStore,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.store = store
        self.required = auth_required(settings)
        configured = settings.secret_key.get_secret_value() if settings.secret_key else None
        # a configured secret wins; else the database's when processes share one (PostgreSQL)
        shared = None if configured is not None else self.store.shared_secret()
        self.tokens = TokenCodec(
            shared or load_or_create_secret(configured, settings.data_dir),
            settings.token_minutes * 60,
        )
        self.limits = RateLimits(settings.rate_limit, settings.rate_limit_storage)
        self.login_limits = RateLimits(settings.login_rate_limit, settings.rate_limit_storage)

    @property
    def global_collection(self) -> str:
        return self.settings.collection

    def close(self) -> None:
        self.store.close()

    # -- credentials -----------------------------------------------------------------

    def login(self, username: str, password: str) -> User:
        user = self.store.find_user(username)
        if not verify_password(password, user.password_hash if user else None) or user is None:
            raise AuthError("wrong user name or password")
        return user

    def issue_token(self, user: User) -> str:
        return self.tokens.issue(user.user_id)

    def from_token(self, token: str) -> Principal:
        claims = self.tokens.verify(token)
        user = self.store.get_user(claims.user_id)
        if user is None:
            raise AuthError("the token's user no longer exists")
        if claims.issued_at < user.tokens_after:
            raise AuthError("the password changed since this token was issued: log in again")
        return self.principal(user, user_scopes(user.is_admin), via="password")

    def from_api_key(self, key: str) -> Principal:
        key_id = api_keys.key_id_of(key)
        info = self.store.get_key(key_id) if key_id else None
        if info is None or not api_keys.matches(key, info.digest):
            raise AuthError("invalid API key")
        if info.revoked:
            raise AuthError("this API key was revoked")
        if info.expired(self.clock()):
            raise AuthError("this API key has expired")
        user = self.store.get_user(info.user_id)
        if user is None:
            raise AuthError("invalid API key")
        # a key acts as its user, never beyond the user's current role
        scopes = info.scopes & user_scopes(user.is_admin)
        return self.principal(user, scopes, via="api_key", key_id=info.key_id)

    def authenticate(self, credential: str | None) -> Principal:
        """A bearer token or API key; none, or one shaped like neither a citewise key nor a
        token, → the local admin when auth is not required."""
        if not credential:
            if self.required:
                raise AuthError("not authenticated: send a bearer token or an API key")
            return self.local_principal()
        if api_keys.looks_like_key(credential):
            principal = self.from_api_key(credential)
        elif self.required or _looks_like_token(credential):
            principal = self.from_token(credential)
        else:
            # no login needed: an OpenAI SDK's placeholder key ("sk-…", "EMPTY") is no claim
            # to be anyone; a citewise key or token still has to be right
            return self.local_principal()
        self.limits.hit(f"key:{principal.key_id}" if principal.key_id else principal.user_id)
        return principal

    # -- principals ------------------------------------------------------------------

    def principal(
        self, user: User, scopes: frozenset[str], *, via: str, key_id: str | None = None
    ) -> Principal:
        readable, writable = self.store.rights(user.user_id)
        is_admin = user.is_admin and ADMIN in scopes
        # a home the user may no longer read (they left the tenant's group) is no home
        home = user.home_collection if is_admin or user.home_collection in readable else ""
        return Principal(
            user_id=user.user_id,
            username=user.username,
            is_admin=is_admin,
            scopes=scopes,
            via="api_key" if via == "api_key" else "password",
            home_collection=home,
            global_collection=self.global_collection,
            readable=readable | {self.global_collection},
            writable=writable,
            key_id=key_id,
        )

    def local_principal(self) -> Principal:
        """The one user of a loopback server without auth: an admin whose own collection is
        the global one, so `serve` answers from what `citewise ingest` added."""
        return Principal(
            user_id=LOCAL_USER_ID,
            username=LOCAL_USER_ID,
            is_admin=True,
            scopes=user_scopes(True),
            via="local",
            home_collection=self.global_collection,
            global_collection=self.global_collection,
            readable=frozenset({self.global_collection}),
            writable=frozenset({self.global_collection}),
        )

    def create_user(
        self, username: str, password: str, *, is_admin: bool = False,
        home_collection: str | None = None,
    ) -> User:  # fmt: skip
        return self.store.create_user(
            username, hash_password(password), is_admin=is_admin, home_collection=home_collection
        )

    def require(self, principal: Principal, scope: str) -> None:
        if scope not in principal.scopes:
            raise ForbiddenError(f"this credential lacks the '{scope}' scope")


def _looks_like_token(credential: str) -> bool:
    """A JWT's shape: three base64url parts joined by dots."""
    parts = credential.split(".")
    return len(parts) == 3 and all(
        p and p.replace("-", "").replace("_", "").isalnum() for p in parts
    )
