"""The graph's tables in the PostgreSQL store's database, over a psycopg connection.

`postgres_schema.MIGRATIONS` joins the store's named migrations (the tables reference
`documents(id)` with ON DELETE CASCADE, so deleting a document deletes its graph);
`apply_schema(conn)` runs them outside the migration runner (tests, tools).
"""

from __future__ import annotations

from typing import Any

import psycopg

from citewise.db.postgres import QmarkConnection
from citewise.graph.postgres_schema import MIGRATIONS as MIGRATIONS
from citewise.graph.postgres_schema import SCHEMA
from citewise.graph.sql import SQLGraphStore

Conn = psycopg.Connection[tuple[Any, ...]]


def apply_schema(conn: Conn) -> None:
    with conn.transaction():
        conn.execute(SCHEMA)


class PostgresGraphStore(SQLGraphStore):
    """The graph over one psycopg connection (autocommit or not: writes run in
    `conn.transaction()`, a savepoint inside a transaction the caller has open)."""

    def __init__(self, conn: Conn) -> None:
        qmark = QmarkConnection(conn)
        super().__init__(lambda: qmark, conn.transaction)
