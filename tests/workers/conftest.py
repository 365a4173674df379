"""Fixtures for the worker tests: a private redis-server."""

from redis_server import redis_url  # noqa: F401  (the fixture)
