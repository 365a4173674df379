"""Tables of the user, key, group and grant store (in the data dir's SQLite file)."""

from __future__ import annotations

import sqlite3

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


def apply_schema(conn: sqlite3.Connection) -> None:
    conn.executescript(f"BEGIN IMMEDIATE;{SCHEMA}COMMIT;")
    columns = {row[1] for row in conn.execute("PRAGMA table_info(auth_users)")}
    if "tokens_after" not in columns:  # a store made before the column
        try:
            conn.execute("ALTER TABLE auth_users ADD COLUMN tokens_after REAL NOT NULL DEFAULT 0")
        except sqlite3.OperationalError as exc:  # another process added it meanwhile
            if "duplicate column" not in str(exc):
                raise
