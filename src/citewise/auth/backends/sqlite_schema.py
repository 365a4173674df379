"""Tables of the user, key, group and grant store (in the data dir's SQLite file)."""

from __future__ import annotations

import sqlite3

from citewise.db.migrations import Migration, add_column, migrate, run_script

SCHEMA = """
CREATE TABLE IF NOT EXISTS auth_users (
    user_id TEXT PRIMARY KEY,
    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    is_admin INTEGER NOT NULL DEFAULT 0,
    home_collection TEXT NOT NULL,
    created_at REAL NOT NULL,
    tokens_after REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS auth_groups (
    group_id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS auth_members (
    group_id TEXT NOT NULL REFERENCES auth_groups(group_id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES auth_users(user_id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX IF NOT EXISTS auth_members_by_user ON auth_members(user_id);
CREATE TABLE IF NOT EXISTS auth_keys (
    key_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES auth_users(user_id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    digest TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS auth_keys_by_user ON auth_keys(user_id);
CREATE TABLE IF NOT EXISTS auth_collections (
    name TEXT PRIMARY KEY,
    -- a deleted user's collection stays, ownerless, so nobody new inherits its documents
    owner_user TEXT REFERENCES auth_users(user_id) ON DELETE SET NULL,
    owner_group TEXT REFERENCES auth_groups(group_id) ON DELETE CASCADE,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS auth_grants (
    collection TEXT NOT NULL REFERENCES auth_collections(name) ON DELETE CASCADE,
    user_id TEXT REFERENCES auth_users(user_id) ON DELETE CASCADE,
    group_id TEXT REFERENCES auth_groups(group_id) ON DELETE CASCADE,
    permission TEXT NOT NULL CHECK (permission IN ('read', 'write')),
    CHECK ((user_id IS NULL) != (group_id IS NULL))
);
CREATE UNIQUE INDEX IF NOT EXISTS auth_grants_unique
    ON auth_grants(collection, coalesce(user_id, ''), coalesce(group_id, ''));
"""


def _first(conn: sqlite3.Connection) -> None:
    run_script(SCHEMA)(conn)
    # a store made before the column (release 2f6bcc7 added it in place)
    add_column("auth_users", "tokens_after", "REAL NOT NULL DEFAULT 0")(conn)


# Append only, numbered on (docs/upgrades.md); their version is `auth_schema_version`
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "users, groups, keys, collections and grants", _first),
)


def apply_schema(conn: sqlite3.Connection) -> None:
    migrate(conn, MIGRATIONS, key="auth_schema_version")
