"""The graph's tables, written once and rendered per SQL dialect: only the column types differ.
No imports, so the PostgreSQL store's migration list can take it without an import cycle."""

from __future__ import annotations

from typing import Literal

Dialect = Literal["sqlite", "postgres"]

# the column types by dialect: {int} ids, {text} strings, {real} weights and strengths
TYPES: dict[Dialect, dict[str, str]] = {
    "sqlite": {"int": "INTEGER", "text": "TEXT", "real": "REAL"},
    "postgres": {"int": "bigint", "text": "text", "real": "double precision"},
}

TABLES = """
CREATE TABLE IF NOT EXISTS graph_documents (
    doc_id {int} PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    collection {text} NOT NULL,
    title {text} NOT NULL,
    source {text} NOT NULL
);
CREATE INDEX IF NOT EXISTS graph_documents_by_collection ON graph_documents(collection, source);
CREATE TABLE IF NOT EXISTS graph_entities (
    doc_id {int} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection {text} NOT NULL,
    key {text} NOT NULL,
    name {text} NOT NULL,
    kind {text} NOT NULL,
    PRIMARY KEY (doc_id, key)
);
CREATE INDEX IF NOT EXISTS graph_entities_by_key ON graph_entities(collection, key);
CREATE TABLE IF NOT EXISTS graph_names (
    doc_id {int} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection {text} NOT NULL,
    key {text} NOT NULL,
    role {text} NOT NULL CHECK (role IN ('entity', 'alias', 'reference', 'document')),
    entity_key {text} NOT NULL,
    PRIMARY KEY (doc_id, key, role)
);
CREATE INDEX IF NOT EXISTS graph_names_by_key ON graph_names(collection, key, role);
CREATE INDEX IF NOT EXISTS graph_names_by_entity ON graph_names(collection, entity_key, role);
CREATE TABLE IF NOT EXISTS graph_mentions (
    doc_id {int} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection {text} NOT NULL,
    key {text} NOT NULL,
    chunk_id {int} NOT NULL,
    PRIMARY KEY (doc_id, key, chunk_id)
);
CREATE INDEX IF NOT EXISTS graph_mentions_by_key ON graph_mentions(collection, key);
CREATE TABLE IF NOT EXISTS graph_relations (
    doc_id {int} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection {text} NOT NULL,
    source {text} NOT NULL,
    target {text} NOT NULL,
    kind {text} NOT NULL,
    chunk_id {int} NOT NULL,
    weight {real} NOT NULL
);
CREATE INDEX IF NOT EXISTS graph_relations_by_doc ON graph_relations(doc_id);
CREATE INDEX IF NOT EXISTS graph_relations_by_source ON graph_relations(collection, source);
CREATE INDEX IF NOT EXISTS graph_relations_by_target ON graph_relations(collection, target);
CREATE TABLE IF NOT EXISTS graph_doc_links (
    collection {text} NOT NULL,
    source_doc {int} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    target_doc {int} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    kind {text} NOT NULL CHECK (kind IN ('explicit', 'implicit')),
    strength {real} NOT NULL CHECK (strength >= 0 AND strength <= 1),
    evidence {text} NOT NULL,
    PRIMARY KEY (source_doc, target_doc, kind)
);
CREATE INDEX IF NOT EXISTS graph_doc_links_by_target ON graph_doc_links(target_doc);
"""


def render(dialect: Dialect) -> str:
    """The DDL creating the graph's tables (idempotent) in `dialect`."""
    return TABLES.format(**TYPES[dialect])
