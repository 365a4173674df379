"""The SQLite user/key store. Groups, collections and grants are in `store_sharing`."""

from __future__ import annotations

import math
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citewise.auth.api_keys import NewKey, new_key
from citewise.auth.models import SCOPES, ApiKeyInfo, User, valid_name
from citewise.auth.sqlite_schema import RIGHTS, apply_schema
from citewise.errors import InputError, NotFoundError, StoreError

_USER_COLUMNS = (
    "user_id, username, is_admin, home_collection, created_at, password_hash, tokens_after"
)
_KEY_COLUMNS = "key_id, user_id, name, scopes, created_at, expires_at, revoked, digest"


def personal_collection(username: str) -> str:
    return f"user-{username.lower()}"


class AuthStoreBase:
    """Thread-safe: each thread gets its own connection to the one file (WAL)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        apply_schema(self._conn)

    @property
    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                conn = sqlite3.connect(
                    self.path, timeout=30.0, isolation_level=None, check_same_thread=False
                )
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA foreign_keys=ON")
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"cannot open the user store at {self.path}: {exc}") from exc
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")

    def close(self) -> None:
        with self._all_lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
        self._local = threading.local()


class UserStore(AuthStoreBase):
    # -- users -----------------------------------------------------------------------

    def create_user(
        self, username: str, password_hash: str, *, is_admin: bool = False,
        home_collection: str | None = None,
    ) -> User:  # fmt: skip
        if not valid_name(username):
            raise InputError(
                f"invalid user name {username!r}: use letters, digits, '.', '_' or '-' (1-48)"
            )
        with self._tx() as conn:
            if self._user_row("username", username) is not None:
                raise InputError(f"user '{username}' already exists")
            personal = self._free_collection_name(personal_collection(username))
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
                "INSERT OR IGNORE INTO auth_collections(name, owner_user, created_at)"
                " VALUES (?,?,?)",
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

    def _free_collection_name(self, wanted: str) -> str:
        """`wanted`, or `wanted-2`, `-3`… when a deleted namesake's collection keeps it."""
        name, n = wanted, 1
        while self._conn.execute(
            "SELECT 1 FROM auth_collections WHERE name = ?", (name,)
        ).fetchone():
            n += 1
            name = f"{wanted}-{n}"
        return name

    def _user_row(self, column: str, value: str) -> User | None:
        row = self._conn.execute(
            f"SELECT {_USER_COLUMNS} FROM auth_users WHERE {column} = ?", (value,)
        ).fetchone()
        return _user(row) if row else None

    def get_user(self, user_id: str) -> User | None:
        return self._user_row("user_id", user_id)

    def find_user(self, username: str) -> User | None:
        return self._user_row("username", username)

    def user(self, username: str) -> User:
        found = self.find_user(username)
        if found is None:
            raise NotFoundError(f"no user '{username}'")
        return found

    def list_users(self) -> list[User]:
        rows = self._conn.execute(
            f"SELECT {_USER_COLUMNS} FROM auth_users ORDER BY username"
        ).fetchall()
        return [_user(r) for r in rows]

    def delete_user(self, username: str) -> User:
        user = self.user(username)
        with self._tx() as conn:
            conn.execute("DELETE FROM auth_users WHERE user_id = ?", (user.user_id,))
        return user

    def update_user(
        self, username: str, *, password_hash: str | None = None, is_admin: bool | None = None,
        home_collection: str | None = None,
    ) -> User:  # fmt: skip
        user = self.user(username)
        with self._tx() as conn:
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
        row = self._conn.execute("SELECT count(*) FROM auth_users WHERE is_admin = 1").fetchone()
        return int(row[0])

    def rights(self, user_id: str) -> tuple[frozenset[str], frozenset[str]]:
        """(readable, writable) collection names from ownership and grants, in one query."""
        rows = self._conn.execute(RIGHTS, {"uid": user_id}).fetchall()
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
        with self._tx() as conn:
            conn.execute(
                f"INSERT INTO auth_keys({_KEY_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)",
                (info.key_id, user_id, info.name, " ".join(sorted(scopes)), info.created_at,
                 expires_at, 0, made.digest),
            )  # fmt: skip
        return made, info

    def get_key(self, key_id: str) -> ApiKeyInfo | None:
        row = self._conn.execute(
            f"SELECT {_KEY_COLUMNS} FROM auth_keys WHERE key_id = ?", (key_id,)
        ).fetchone()
        return _key(row) if row else None

    def list_keys(self, user_id: str) -> list[ApiKeyInfo]:
        rows = self._conn.execute(
            f"SELECT {_KEY_COLUMNS} FROM auth_keys WHERE user_id = ? ORDER BY created_at",
            (user_id,),
        ).fetchall()
        return [_key(r) for r in rows]

    def revoke_key(self, user_id: str, key_id: str) -> ApiKeyInfo:
        """Revokes one of `user_id`'s keys (another user's key is as unknown as none)."""
        with self._tx() as conn:
            cur = conn.execute(
                "UPDATE auth_keys SET revoked = 1 WHERE key_id = ? AND user_id = ?",
                (key_id, user_id),
            )
        found = self.get_key(key_id)
        if cur.rowcount == 0 or found is None:
            raise NotFoundError(f"no API key '{key_id}'")
        return found


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
