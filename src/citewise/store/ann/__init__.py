"""An HNSW index per collection (usearch, int8 vectors) for the embedded store: a cache
rebuildable from the store's own vectors, never their source of truth."""
