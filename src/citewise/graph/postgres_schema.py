"""The graph's PostgreSQL tables as a named migration: it imports only `graph.schema`, so
the store's migration list can take it without an import cycle
(`MIGRATIONS = (..., *GRAPH_MIGRATIONS)`)."""

from __future__ import annotations

from citewise.graph.schema import render

SCHEMA = render("postgres")
MIGRATIONS: tuple[tuple[str, str], ...] = (("0101_knowledge_graph", SCHEMA),)
