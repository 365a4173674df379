"""The knowledge graph in the SQLite store's file: a document's graph replaced inside the
store's write transaction (the tables are `citewise.graph.sqlite`'s)."""

from __future__ import annotations

import sqlite3

from citewise.graph import sqlite as graph_tables
from citewise.graph.model import DocumentGraph, DocumentLink


def replace_graph(
    conn: sqlite3.Connection, doc_id: int, graph: DocumentGraph
) -> list[DocumentLink]:
    row = conn.execute(
        "SELECT c.name, d.title, d.source FROM documents d "
        "JOIN collections c ON c.id = d.collection_id WHERE d.id = ?",
        (doc_id,),
    ).fetchone()
    if row is None:  # deleted or replaced meanwhile: its graph went with it
        return []
    collection, title, source = row
    return graph_tables.replace_document(conn, doc_id, collection, title, source, graph)
