"""Conversation memory: per-session turns and summaries behind one protocol (`Memory`).

>>> from citewise.chat.memory import Turn, create_memory
>>> memory = create_memory(None, data_dir, ttl_seconds=86400)  # doctest: +SKIP
>>> memory.append(Turn("s1", "What is X?", "X is ... [1]", "question"))  # doctest: +SKIP

Backends: `SQLiteMemory` (the default: `memory.db` in the data dir), `RedisMemory`
(`redis://host:port/db`) and `PostgresMemory` (the store's database when the store is
PostgreSQL), so several processes can share sessions.
"""

from __future__ import annotations

from pathlib import Path

from citewise.chat.memory.base import (
    DEFAULT_TTL_SECONDS,
    Memory,
    SessionInfo,
    Turn,
    TurnSource,
    validate_session_id,
)
from citewise.chat.memory.sqlite import SQLiteMemory
from citewise.errors import ConfigError
from citewise.registry import FactoryRegistry
from citewise.text.urls import redact_url, scheme

VALID_MEMORY_URLS = (
    "sqlite (memory.db in the data dir)",
    "sqlite:///PATH",
    "redis://HOST:PORT/DB",
    "rediss://HOST:PORT/DB",
    "postgresql://USER@HOST/DB",
)
MEMORY_FILE = "memory.db"


def _sqlite(url: str, data_dir: Path, ttl_seconds: int) -> Memory:
    if url.lower() == "sqlite":
        return SQLiteMemory(Path(data_dir) / MEMORY_FILE, ttl_seconds)
    if not url.lower().startswith("sqlite:///") or len(url) <= 10:
        raise _unknown(url)
    path = Path(url[len("sqlite:///") :])
    return SQLiteMemory(path if path.is_absolute() else Path(data_dir) / path, ttl_seconds)


def _redis(url: str, data_dir: Path, ttl_seconds: int) -> Memory:
    from citewise.chat.memory.redis import RedisMemory

    return RedisMemory(url, ttl_seconds)


def _postgres(url: str, data_dir: Path, ttl_seconds: int) -> Memory:
    from citewise.chat.memory.postgres import PostgresMemory

    return PostgresMemory(url, ttl_seconds)


def _unknown(spec: str, _schemes: list[str] | None = None) -> ConfigError:
    return ConfigError(
        f"unknown conversation memory {redact_url(spec)!r}; valid: {', '.join(VALID_MEMORY_URLS)}"
    )


# scheme → backend; each factory gets (url, data_dir, ttl_seconds)
MEMORIES = FactoryRegistry[[str, Path, int], Memory](
    "conversation memory",
    [
        ("sqlite", _sqlite),
        ("redis", _redis),
        ("rediss", _redis),
        ("postgresql", _postgres),
        ("postgres", _postgres),
    ],
    unknown=_unknown,
)


def create_memory(
    url: str | None, data_dir: Path, ttl_seconds: int = DEFAULT_TTL_SECONDS
) -> Memory:
    """A memory backend from a URL: None or "sqlite" → `data_dir/memory.db`; "sqlite:///PATH"
    → that file (relative paths are under data_dir); "redis://…" or "rediss://…" → Redis;
    "postgresql://…" → PostgreSQL (the composition root picks the store's URL)."""
    spec = (url or "sqlite").strip()
    name = scheme(spec)
    if ttl_seconds <= 0:
        raise ConfigError(f"memory TTL must be a positive number of seconds, got {ttl_seconds}")
    # the error names the whole spec (without its password), not only its scheme
    if name not in MEMORIES or (name != "sqlite" and not spec.lower().startswith(f"{name}://")):
        raise _unknown(spec)
    return MEMORIES.create(name, spec, Path(data_dir), ttl_seconds)


__all__ = [
    "DEFAULT_TTL_SECONDS",
    "MEMORIES",
    "MEMORY_FILE",
    "VALID_MEMORY_URLS",
    "Memory",
    "SQLiteMemory",
    "SessionInfo",
    "Turn",
    "TurnSource",
    "create_memory",
    "validate_session_id",
]
