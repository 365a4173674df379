"""Users in PostgreSQL, the store's database: every API process on every machine that
shares it sees the same users, keys, groups and grants, and signs tokens with one secret.

Tables are created by named migrations (`db.postgres.migrate`) and mirror the
SQLite ones; user and group names are unique regardless of case, as SQLite's NOCASE makes
them. Connections come from a pool (psycopg-pool); a transaction pins its connection to the
thread, so reads inside it see its writes.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from citewise.db.postgres import QmarkConnection, migrated_pool
from citewise.db.sql import SqlConn
from citewise.errors import InputError, StoreError
from citewise.text.urls import redact_url

Conn = psycopg.Connection[tuple[Any, ...]]

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "auth_0001_users",
        """
        CREATE TABLE auth_users (
            user_id text PRIMARY KEY,
            username text NOT NULL,
            password_hash text NOT NULL,
            is_admin integer NOT NULL DEFAULT 0,
            home_collection text NOT NULL,
            created_at double precision NOT NULL,
            tokens_after double precision NOT NULL DEFAULT 0
        );
        CREATE UNIQUE INDEX auth_users_name ON auth_users (lower(username));
        CREATE TABLE auth_groups (
            group_id text PRIMARY KEY,
            name text NOT NULL,
            created_at double precision NOT NULL
        );
        CREATE UNIQUE INDEX auth_groups_name ON auth_groups (lower(name));
        CREATE TABLE auth_members (
            group_id text NOT NULL REFERENCES auth_groups(group_id) ON DELETE CASCADE,
            user_id text NOT NULL REFERENCES auth_users(user_id) ON DELETE CASCADE,
            PRIMARY KEY (group_id, user_id)
        );
        CREATE INDEX auth_members_by_user ON auth_members (user_id);
        CREATE TABLE auth_keys (
            key_id text PRIMARY KEY,
            user_id text NOT NULL REFERENCES auth_users(user_id) ON DELETE CASCADE,
            name text NOT NULL,
            scopes text NOT NULL,
            digest text NOT NULL,
            created_at double precision NOT NULL,
            expires_at double precision,
            revoked integer NOT NULL DEFAULT 0
        );
        CREATE INDEX auth_keys_by_user ON auth_keys (user_id);
        CREATE TABLE auth_collections (
            name text PRIMARY KEY,
            -- a deleted user's collection stays, ownerless, so nobody new inherits it
            owner_user text REFERENCES auth_users(user_id) ON DELETE SET NULL,
            owner_group text REFERENCES auth_groups(group_id) ON DELETE CASCADE,
            created_at double precision NOT NULL
        );
        CREATE TABLE auth_grants (
            collection text NOT NULL REFERENCES auth_collections(name) ON DELETE CASCADE,
            user_id text REFERENCES auth_users(user_id) ON DELETE CASCADE,
            group_id text REFERENCES auth_groups(group_id) ON DELETE CASCADE,
            permission text NOT NULL CHECK (permission IN ('read', 'write')),
            CHECK ((user_id IS NULL) != (group_id IS NULL))
        );
        CREATE UNIQUE INDEX auth_grants_unique
            ON auth_grants (collection, coalesce(user_id, ''), coalesce(group_id, ''));
        """,
    ),
    (
        "auth_0002_secrets",
        "CREATE TABLE auth_secrets (name text PRIMARY KEY, value text NOT NULL)",
    ),
)


class PostgresAuthDb:
    def __init__(self, url: str, *, pool_size: int = 4) -> None:
        self.url = redact_url(url)
        self._local = threading.local()
        try:
            self._pool = migrated_pool(url, MIGRATIONS, name="citewise-auth", size=pool_size)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open the user store {self.url}: {exc}") from exc

    @contextmanager
    def connection(self) -> Iterator[SqlConn]:
        pinned: QmarkConnection | None = getattr(self._local, "conn", None)
        if pinned is not None:
            yield pinned
            return
        try:
            with self._pool.connection() as conn:
                yield QmarkConnection(conn)
        except psycopg.Error as exc:
            raise StoreError(f"the user store {self.url} failed: {exc}") from exc

    @contextmanager
    def transaction(self) -> Iterator[SqlConn]:
        if getattr(self._local, "conn", None) is not None:
            raise RuntimeError("user store transactions do not nest")
        try:
            with self._pool.connection() as conn, conn.transaction():
                self._local.conn = QmarkConnection(conn)
                try:
                    yield self._local.conn
                finally:
                    self._local.conn = None
        except psycopg.errors.IntegrityError as exc:
            raise InputError(f"the change clashes with stored users or collections: {exc}") from exc
        except psycopg.Error as exc:
            raise StoreError(f"the user store {self.url} failed: {exc}") from exc

    def shared_secret(self) -> str | None:
        with self.connection() as conn:
            conn.execute(
                "INSERT INTO auth_secrets(name, value) VALUES ('token', ?) ON CONFLICT DO NOTHING",
                (secrets.token_urlsafe(48),),
            )
            row = conn.execute("SELECT value FROM auth_secrets WHERE name = 'token'").fetchone()
        return str(row[0])

    def close(self) -> None:
        self._pool.close()
