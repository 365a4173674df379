"""Ingestion workers: one job per file on a Redis-backed dramatiq queue, any number of
`citewise worker` processes on any number of machines sharing one store (PostgreSQL)."""
