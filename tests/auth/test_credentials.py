"""Passwords, access tokens, the token secret and API keys."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import jwt
import pytest

from citewise.auth import api_keys
from citewise.auth.passwords import hash_password, verify_password
from citewise.auth.tokens import SECRET_FILE, TokenCodec, load_or_create_secret
from citewise.errors import AuthError, ConfigError, InputError

SECRET = "s" * 40


def test_password_hash_is_argon2id_and_verifies_only_the_password() -> None:
    hashed = hash_password("correct horse")
    assert hashed.startswith("$argon2id$")
    assert "correct horse" not in hashed
    assert verify_password("correct horse", hashed)
    assert not verify_password("correct hors", hashed)
    assert not verify_password("correct horse", None)
    assert not verify_password("correct horse", "not-a-hash")


def test_short_password_is_refused() -> None:
    with pytest.raises(InputError, match="at least 8"):
        hash_password("short")


def test_token_round_trip_names_the_user() -> None:
    codec = TokenCodec(SECRET, ttl_seconds=60)
    claims = codec.verify(codec.issue("u1"))
    assert claims.user_id == "u1"
    assert 59 < claims.expires_at - claims.issued_at <= 60


def test_expired_token_is_refused() -> None:
    codec = TokenCodec(SECRET, ttl_seconds=60)
    token = codec.issue("u1", now=time.time() - 120)
    with pytest.raises(AuthError, match="expired"):
        codec.verify(token)


@pytest.mark.parametrize(
    "forge",
    [
        lambda: TokenCodec("x" * 40, 60).issue("u1"),  # another secret
        lambda: jwt.encode({"sub": "u1", "iat": 0, "exp": 2**40, "typ": "access"}, None, "none"),
        lambda: jwt.encode({"sub": "u1", "iat": 0, "exp": 2**40}, SECRET, "HS256"),  # no typ
        lambda: "not.a.token",
    ],
)
def test_forged_tokens_are_refused(forge: object) -> None:
    with pytest.raises(AuthError, match="invalid"):
        TokenCodec(SECRET, 60).verify(forge())  # type: ignore[operator]


def test_secret_is_made_once_with_mode_600_and_kept(tmp_path: Path) -> None:
    first = load_or_create_secret(None, tmp_path)
    path = tmp_path / SECRET_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 32
    assert load_or_create_secret(None, tmp_path) == first
    assert load_or_create_secret("c" * 32, tmp_path) == "c" * 32


def test_secret_readable_by_others_or_too_short_is_refused(tmp_path: Path) -> None:
    load_or_create_secret(None, tmp_path)
    os.chmod(tmp_path / SECRET_FILE, 0o644)
    with pytest.raises(ConfigError, match="chmod 600"):
        load_or_create_secret(None, tmp_path)
    with pytest.raises(ConfigError, match="at least 32"):
        load_or_create_secret("short", tmp_path)


def test_api_key_keeps_only_a_digest_and_matches_in_constant_time() -> None:
    made = api_keys.new_key()
    assert made.key.startswith("cwk_") and api_keys.looks_like_key(made.key)
    assert api_keys.key_id_of(made.key) == made.key_id
    assert made.key not in made.digest and len(made.digest) == 64
    assert api_keys.matches(made.key, made.digest)
    other = "B" if made.key.endswith("A") else "A"  # a key one character off
    assert not api_keys.matches(made.key[:-1] + other, made.digest)
    assert api_keys.key_id_of("cwk_nothex_x") is None
    assert api_keys.new_key().key != made.key
