"""The graph's PostgreSQL tables as a named migration: no imports, so the store's migration
list can take it without an import cycle (`MIGRATIONS = (..., *GRAPH_MIGRATIONS)`)."""

from __future__ import annotations

SCHEMA = """
CREATE TABLE IF NOT EXISTS graph_documents (
    doc_id bigint PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    collection text NOT NULL,
    title text NOT NULL,
    source text NOT NULL
);
CREATE INDEX IF NOT EXISTS graph_documents_by_collection ON graph_documents(collection, source);
CREATE TABLE IF NOT EXISTS graph_entities (
    doc_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection text NOT NULL,
    key text NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    PRIMARY KEY (doc_id, key)
);
CREATE INDEX IF NOT EXISTS graph_entities_by_key ON graph_entities(collection, key);
CREATE TABLE IF NOT EXISTS graph_names (
    doc_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection text NOT NULL,
    key text NOT NULL,
    role text NOT NULL CHECK (role IN ('entity', 'alias', 'reference', 'document')),
    entity_key text NOT NULL,
    PRIMARY KEY (doc_id, key, role)
);
CREATE INDEX IF NOT EXISTS graph_names_by_key ON graph_names(collection, key, role);
CREATE INDEX IF NOT EXISTS graph_names_by_entity ON graph_names(collection, entity_key, role);
CREATE TABLE IF NOT EXISTS graph_mentions (
    doc_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection text NOT NULL,
    key text NOT NULL,
    chunk_id bigint NOT NULL,
    PRIMARY KEY (doc_id, key, chunk_id)
);
CREATE INDEX IF NOT EXISTS graph_mentions_by_key ON graph_mentions(collection, key);
CREATE TABLE IF NOT EXISTS graph_relations (
    doc_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    collection text NOT NULL,
    source text NOT NULL,
    target text NOT NULL,
    kind text NOT NULL,
    chunk_id bigint NOT NULL,
    weight double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS graph_relations_by_doc ON graph_relations(doc_id);
CREATE INDEX IF NOT EXISTS graph_relations_by_source ON graph_relations(collection, source);
CREATE INDEX IF NOT EXISTS graph_relations_by_target ON graph_relations(collection, target);
CREATE TABLE IF NOT EXISTS graph_doc_links (
    collection text NOT NULL,
    source_doc bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    target_doc bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('explicit', 'implicit')),
    strength double precision NOT NULL CHECK (strength >= 0 AND strength <= 1),
    evidence text NOT NULL,
    PRIMARY KEY (source_doc, target_doc, kind)
);
CREATE INDEX IF NOT EXISTS graph_doc_links_by_target ON graph_doc_links(target_doc);
"""
MIGRATIONS: tuple[tuple[str, str], ...] = (("0101_knowledge_graph", SCHEMA),)
