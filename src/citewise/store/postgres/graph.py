"""The knowledge graph in the PostgreSQL store's database: a document's graph replaced inside
the store's transaction (the tables are `citewise.graph.postgres_schema`'s)."""

from __future__ import annotations

from typing import Any

import psycopg

from citewise.graph.model import DocumentGraph, DocumentLink
from citewise.graph.postgres import PostgresGraphStore

Conn = psycopg.Connection[tuple[Any, ...]]


def replace_graph(conn: Conn, doc_id: int, graph: DocumentGraph) -> list[DocumentLink]:
    row = conn.execute(
        "SELECT c.name, d.title, d.source FROM documents d "
        "JOIN collections c ON c.id = d.collection_id WHERE d.id = %s",
        (doc_id,),
    ).fetchone()
    if row is None:  # deleted or replaced meanwhile: its graph went with it
        return []
    collection, title, source = row
    return PostgresGraphStore(conn).replace_document(doc_id, collection, title, source, graph)
