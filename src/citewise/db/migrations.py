"""Numbered schema migrations of an embedded (SQLite) database: each runs once, in order, in
one transaction of its own that also records the new version in `meta` (the document store
under `schema_version`, users under `auth_schema_version`, conversation memory under
`memory_schema_version`: the families may share a file), so a database is at one version or
the next, never between. Several processes may open one at once: each takes the write lock
and looks at the version again before it migrates.

A change that makes stored data stale says so in its own SQL, in the data itself: documents
to re-parse get `pipeline = ''`, vectors to remake are deleted (their chunks lose
`has_vector`), and `meta.reindex` names why; `citewise reindex` then does the work and
clears it (`store.reindex`). The PostgreSQL store keeps the same numbers in its named
migrations (`store.postgres.schema`); docs/upgrades.md shows how to add one."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from citewise.errors import StoreError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Migration:
    number: int  # 1, 2, 3…: the schema version once it is applied
    name: str
    apply: Callable[[sqlite3.Connection], None]  # inside the migration's transaction


def statements(script: str) -> list[str]:
    """The statements of an SQL script, one by one (`executescript` would commit the
    migration's transaction half way)."""
    done: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                done.append(pending.strip())
            pending = ""
    if pending.strip() and not pending.strip().startswith("--"):
        raise ValueError(f"an unfinished SQL statement: {pending.strip()[:60]!r}")
    return done


def run_script(script: str) -> Callable[[sqlite3.Connection], None]:
    """A migration step that runs every statement of `script`."""

    def apply(conn: sqlite3.Connection) -> None:
        for statement in statements(script):
            conn.execute(statement)

    return apply


def add_column(table: str, column: str, decl: str) -> Callable[[sqlite3.Connection], None]:
    """A migration step that adds a column unless the table has it (a store changed in
    place before versions were kept may)."""

    def apply(conn: sqlite3.Connection) -> None:
        if column not in {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")

    return apply


STORE = "schema_version"
_META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


def schema_version(conn: sqlite3.Connection, key: str = STORE) -> int:
    """The version recorded under `key` (0: none yet, e.g. a new, empty file)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError:  # no meta table yet
        return 0
    return int(row[0]) if row is not None else 0


def migrate(
    conn: sqlite3.Connection, migrations: Sequence[Migration], *, key: str = STORE
) -> list[int]:
    """Applies the migrations the database lacks, each in its own transaction; returns their
    numbers. A database written by a newer release (a version past the last migration) is
    refused rather than misread."""
    numbers = [m.number for m in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"migrations must be numbered 1, 2, 3… in order; got {numbers}")
    latest = len(migrations)
    applied: list[int] = []
    for migration in migrations:
        if schema_version(conn, key) >= migration.number:  # read again under the lock below
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(conn, key) < migration.number:
                migration.apply(conn)
                conn.execute(_META)
                conn.execute(
                    "INSERT INTO meta(key, value) VALUES (?, ?)"
                    " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, str(migration.number)),
                )
                applied.append(migration.number)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        log.info("%s: migrated to %d (%s)", key, migration.number, migration.name)
    found = schema_version(conn, key)
    if found > latest:
        raise StoreError(
            f"this database has {key} {found}, written by a newer citewise than this one"
            f" (which knows versions up to {latest}): upgrade citewise to open it"
        )
    return applied
