from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from citewise.graph.sqlite import SQLiteGraphStore
from graph.db import documents_db


@pytest.fixture
def conn() -> Iterator[sqlite3.Connection]:
    c = documents_db()
    yield c
    c.close()


@pytest.fixture
def graph_store(conn: sqlite3.Connection) -> SQLiteGraphStore:
    return SQLiteGraphStore(conn)
