"""`create_memory`: a memory backend from a URL; an unknown one lists the valid forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.chat.memory import SQLiteMemory, Turn, create_memory
from citewise.errors import ConfigError


def turn(session_id: str, n: int) -> Turn:
    return Turn(session_id, f"question {n}?", f"Answer {n}. More [1].", "question")


def test_create_memory_defaults_to_memory_db_in_the_data_dir(tmp_path: Path) -> None:
    memory = create_memory(None, tmp_path, 60)
    assert isinstance(memory, SQLiteMemory)
    assert memory.path == tmp_path / "memory.db" and memory.ttl_seconds == 60
    memory.append(turn("s1", 1))
    memory.close()
    assert (tmp_path / "memory.db").is_file()
    other = create_memory(f"sqlite:///{tmp_path / 'x' / 'm.db'}", tmp_path, 60)
    assert isinstance(other, SQLiteMemory) and other.path == tmp_path / "x" / "m.db"
    other.close()


@pytest.mark.parametrize("url", ["mongodb://h/db", "mysql://h", "redis", "memory"])
def test_create_memory_rejects_unknown_urls_listing_the_valid_ones(
    tmp_path: Path, url: str
) -> None:
    with pytest.raises(ConfigError, match=r"valid: sqlite.*redis://"):
        create_memory(url, tmp_path, 60)


def test_sqlite_memory_commits_a_turn_without_syncing_the_disk(tmp_path: Path) -> None:
    memory = SQLiteMemory(tmp_path / "memory.db")
    memory.append(turn("s1", 1))
    with memory._db.connection() as conn:  # WAL with synchronous=NORMAL (1)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1
    memory.close()
    reopened = SQLiteMemory(tmp_path / "memory.db")
    assert [t.question for t in reopened.turns("s1")] == ["question 1?"]
    reopened.close()
