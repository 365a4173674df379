"""Password hashing: argon2id through pwdlib's recommended settings."""

from __future__ import annotations

from pwdlib import PasswordHash

from citewise.errors import InputError

MIN_PASSWORD_CHARS = 8
MAX_PASSWORD_CHARS = 1024  # argon2 hashes any length; bound the work an attacker can ask for

_hasher = PasswordHash.recommended()

# verified when a username is unknown, so both paths cost one argon2 run
_DUMMY_HASH = _hasher.hash("citewise-no-such-user")


def check_new_password(password: str) -> None:
    if len(password) < MIN_PASSWORD_CHARS:
        raise InputError(f"passwords need at least {MIN_PASSWORD_CHARS} characters")
    if len(password) > MAX_PASSWORD_CHARS:
        raise InputError(f"passwords have at most {MAX_PASSWORD_CHARS} characters")


def hash_password(password: str) -> str:
    check_new_password(password)
    return _hasher.hash(password)


def verify_password(password: str, password_hash: str | None) -> bool:
    """Constant work whether or not the user exists."""
    if len(password) > MAX_PASSWORD_CHARS:
        return False
    if not password_hash:
        _hasher.verify(password, _DUMMY_HASH)
        return False
    try:
        return bool(_hasher.verify(password, password_hash))
    except Exception:  # an unreadable stored hash never lets anyone in
        return False
