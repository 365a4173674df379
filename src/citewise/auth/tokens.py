"""JWT access tokens (HS256) and the secret that signs them."""

from __future__ import annotations

import math
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

import jwt

from citewise.errors import AuthError, ConfigError

ALGORITHM = "HS256"
SECRET_FILE = "secret_key"
MIN_SECRET_CHARS = 32


@dataclass(frozen=True, slots=True)
class TokenClaims:
    user_id: str
    expires_at: float
    issued_at: float


def load_or_create_secret(configured: str | None, data_dir: Path) -> str:
    """The configured secret, else the one kept in the data dir, else a new one written
    there (mode 0600) at first start. There is no built-in default."""
    if configured is not None:
        if len(configured) < MIN_SECRET_CHARS:
            raise ConfigError(f"CITEWISE_SECRET_KEY needs at least {MIN_SECRET_CHARS} characters")
        return configured
    path = data_dir / SECRET_FILE
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_secret(path)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(secrets.token_urlsafe(48))
    return _read_secret(path)


def _read_secret(path: Path) -> str:
    if path.stat().st_mode & 0o077:
        raise ConfigError(f"{path} is readable by others: run chmod 600 {path}")
    secret = path.read_text(encoding="ascii").strip()
    if len(secret) < MIN_SECRET_CHARS:
        raise ConfigError(f"{path} holds no usable secret: delete it to make a new one")
    return secret


class TokenCodec:
    def __init__(self, secret: str, ttl_seconds: float) -> None:
        self._secret = secret
        self.ttl_seconds = ttl_seconds

    def issue(self, user_id: str, *, now: float | None = None) -> str:
        issued = time.time() if now is None else now
        claims = {
            "sub": user_id,
            "iat": math.floor(issued * 1000) / 1000,  # sub-second: see User.tokens_after
            "exp": int(issued + self.ttl_seconds),
            "typ": "access",
        }
        return jwt.encode(claims, self._secret, algorithm=ALGORITHM)

    def verify(self, token: str) -> TokenClaims:
        try:
            claims = jwt.decode(
                token,
                self._secret,
                algorithms=[ALGORITHM],
                options={"require": ["sub", "exp", "iat"]},
            )
        except jwt.ExpiredSignatureError as exc:
            raise AuthError("the access token has expired: ask /auth/token for a new one") from exc
        except jwt.InvalidTokenError as exc:
            raise AuthError("invalid access token") from exc
        if claims.get("typ") != "access" or not isinstance(claims["sub"], str):
            raise AuthError("invalid access token")
        return TokenClaims(
            user_id=claims["sub"], expires_at=float(claims["exp"]), issued_at=float(claims["iat"])
        )
