"""Terminal rendering for the CLI: `tables` (consoles, JSON, ingest and search results) and
`answer` (the answer flow's events as they stream)."""
