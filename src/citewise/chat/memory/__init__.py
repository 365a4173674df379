"""Conversation memory: per-session turns and summaries behind one protocol (`Memory`).

>>> from citewise.chat.memory import Turn, create_memory
>>> memory = create_memory(None, data_dir, ttl_seconds=86400)  # doctest: +SKIP
>>> memory.append(Turn("s1", "What is X?", "X is ... [1]", "question"))  # doctest: +SKIP

Backends: `SQLiteMemory` (the default: `memory.db` in the data dir) and `RedisMemory`
(`redis://host:port/db`), so several processes can share sessions.
"""

from __future__ import annotations

from pathlib import Path

from citewise.chat.memory.base import (
    DEFAULT_TTL_SECONDS,
    Memory,
    SessionInfo,
    Turn,
    TurnSource,
    redact_url,
    validate_session_id,
)
from citewise.chat.memory.sqlite import SQLiteMemory
from citewise.errors import ConfigError

VALID_MEMORY_URLS = (
    "sqlite (memory.db in the data dir)",
    "sqlite:///PATH",
    "redis://HOST:PORT/DB",
    "rediss://HOST:PORT/DB",
)
MEMORY_FILE = "memory.db"


def create_memory(
    url: str | None, data_dir: Path, ttl_seconds: int = DEFAULT_TTL_SECONDS
) -> Memory:
    """A memory backend from a URL: None or "sqlite" → `data_dir/memory.db`; "sqlite:///PATH"
    → that file (relative paths are under data_dir); "redis://…" or "rediss://…" → Redis."""
    spec = (url or "sqlite").strip()
    scheme = spec.split(":", 1)[0].lower()
    if ttl_seconds <= 0:
        raise ConfigError(f"memory TTL must be a positive number of seconds, got {ttl_seconds}")
    if spec.lower() == "sqlite":
        return SQLiteMemory(Path(data_dir) / MEMORY_FILE, ttl_seconds)
    if scheme == "sqlite" and spec.lower().startswith("sqlite:///") and len(spec) > 10:
        path = Path(spec[len("sqlite:///") :])
        return SQLiteMemory(path if path.is_absolute() else Path(data_dir) / path, ttl_seconds)
    if scheme in ("redis", "rediss") and spec.lower().startswith(f"{scheme}://"):
        from citewise.chat.memory.redis import RedisMemory

        return RedisMemory(spec, ttl_seconds)
    raise ConfigError(
        f"unknown conversation memory {redact_url(spec)!r}; valid: {', '.join(VALID_MEMORY_URLS)}"
    )


__all__ = [
    "DEFAULT_TTL_SECONDS",
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
