"""API keys: `cwk_<lookup>_<secret>`. Only the SHA-256 of the whole key is stored; the
lookup part finds the row, a constant-time comparison of digests decides."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

KEY_PREFIX = "cwk_"
_KEY = re.compile(r"^cwk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")


@dataclass(frozen=True, slots=True)
class NewKey:
    key: str  # shown once to its owner
    key_id: str
    digest: str


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key() -> NewKey:
    key_id = secrets.token_hex(6)
    key = f"{KEY_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    return NewKey(key=key, key_id=key_id, digest=digest(key))


def looks_like_key(credential: str) -> bool:
    return credential.startswith(KEY_PREFIX)


def key_id_of(key: str) -> str | None:
    """The lookup id of a well-formed key, else None."""
    match = _KEY.match(key)
    return match.group(1) if match else None


def matches(key: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(key), stored_digest)
