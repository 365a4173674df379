"""The knowledge graph: entities, relations and document cross-references extracted at ingest,
stored beside the chunks, walked for relationship questions (docs/graph.md)."""
