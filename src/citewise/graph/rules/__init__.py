"""Extraction rules: each reads one sentence and returns the mentions or edges it finds."""
