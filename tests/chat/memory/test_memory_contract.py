"""The Memory contract: the same cases against SQLite and Redis (see conftest.memory_env)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from citewise.chat.history_summary import recent_context
from citewise.chat.memory import Memory, SQLiteMemory, Turn, TurnSource, create_memory
from citewise.errors import ConfigError, InputError, NotFoundError

if TYPE_CHECKING:
    from chat.memory.conftest import MemoryEnv


def turn(session_id: str, n: int) -> Turn:
    return Turn(session_id, f"question {n}?", f"Answer {n}. More [1].", "question")


def questions(turns: list[Turn]) -> list[str]:
    return [t.question for t in turns]


def test_turns_come_back_oldest_first_with_every_field(memory: Memory) -> None:
    first = Turn(
        "s1",
        "Wie groß ist das Limit? 🚀",
        "Es sind 10 MB [1].",
        "followup",
        rewritten_query="upload size limit",
        sources=(TurnSource("guide.pdf", 3, "Guide > Limits", 42), TurnSource("a.md", None, "", 7)),
        created_at=1234.5,
    )
    memory.append(first)
    memory.append(turn("s1", 2))
    got = memory.turns("s1")
    assert got[0] == first
    assert questions(got) == ["Wie groß ist das Limit? 🚀", "question 2?"]


def test_last_returns_only_the_most_recent_turns_in_order(memory: Memory) -> None:
    for n in range(6):
        memory.append(turn("s1", n))
    assert questions(memory.turns("s1", last=2)) == ["question 4?", "question 5?"]
    assert len(memory.turns("s1", last=100)) == 6
    assert memory.turns("s1", last=0) == []


def test_two_sessions_never_see_each_others_turns(memory: Memory) -> None:
    for n in range(3):
        memory.append(turn("alice", n))
        memory.append(turn("alice.2", 10 + n))
    assert questions(memory.turns("alice")) == ["question 0?", "question 1?", "question 2?"]
    assert all(t.session_id == "alice.2" for t in memory.turns("alice.2"))
    memory.set_summary("alice", "about alice", 1)
    assert memory.summary("alice.2") is None
    memory.delete("alice")
    assert len(memory.turns("alice.2")) == 3


def test_unknown_session_has_no_turns_and_require_raises_not_found(memory: Memory) -> None:
    assert memory.turns("nobody") == []
    assert memory.summary("nobody") is None
    assert not memory.exists("nobody")
    assert memory.info("nobody") is None
    with pytest.raises(NotFoundError, match="nobody"):
        memory.require("nobody")


def test_session_expires_after_its_ttl_without_activity(memory_env: MemoryEnv) -> None:
    memory = memory_env.open(ttl_seconds=1)
    memory.append(turn("short", 1))
    assert memory.require("short").turns == 1
    memory_env.advance(1.6)
    assert not memory.exists("short")
    assert memory.turns("short") == []
    assert [s.session_id for s in memory.sessions()] == []
    memory.append(turn("short", 2))  # a new session: the expired turns do not come back
    assert questions(memory.turns("short")) == ["question 2?"]


def test_append_refreshes_the_session_ttl(memory_env: MemoryEnv) -> None:
    memory = memory_env.open(ttl_seconds=60)
    memory.append(turn("s1", 1))
    before = memory.require("s1").expires_at
    memory_env.advance(0.5)
    memory.append(turn("s1", 2))
    after = memory.require("s1").expires_at
    assert before is not None and after is not None
    assert after - before >= 0.3
    assert after - memory.require("s1").updated_at == pytest.approx(60, abs=1.5)


def test_delete_removes_the_session_and_says_whether_it_existed(memory: Memory) -> None:
    memory.append(turn("s1", 1))
    memory.set_summary("s1", "summary", 1)
    assert memory.delete("s1") is True
    assert not memory.exists("s1")
    assert memory.turns("s1") == [] and memory.summary("s1") is None
    assert memory.delete("s1") is False


def test_clear_keeps_the_session_but_drops_turns_and_summary(memory: Memory) -> None:
    for n in range(3):
        memory.append(turn("s1", n))
    memory.set_summary("s1", "summary", 2)
    memory.clear("s1")
    info = memory.require("s1")
    assert (info.turns, info.has_summary, info.covered_turns) == (0, False, 0)
    assert memory.turns("s1") == [] and memory.summary("s1") is None
    memory.append(turn("s1", 9))
    assert questions(memory.turns("s1")) == ["question 9?"]
    with pytest.raises(NotFoundError):
        memory.clear("other")


def test_sessions_lists_live_sessions_most_recently_updated_first(
    memory_env: MemoryEnv,
) -> None:
    memory = memory_env.open()
    memory.append(turn("old", 1))
    memory.append(turn("old", 2))
    memory_env.advance(0.05)
    memory.append(turn("new", 1))
    listed = memory.sessions()
    assert [(s.session_id, s.turns, s.has_summary) for s in listed] == [
        ("new", 1, False),
        ("old", 2, False),
    ]
    assert all(s.created_at <= s.updated_at for s in listed)


def test_summary_covers_older_turns_in_recent_context(memory: Memory) -> None:
    for n in range(6):
        memory.append(turn("s1", n))
    memory.set_summary("s1", "The user asked about limits.", 4)
    info = memory.require("s1")
    assert (info.turns, info.has_summary, info.covered_turns) == (6, True, 4)
    summary, recent = recent_context(memory, "s1", last=5)
    assert summary == "The user asked about limits."
    assert questions(recent) == ["question 4?", "question 5?"]
    assert len(memory.turns("s1")) == 6  # covered turns stay in the history


def test_set_summary_checks_the_session_and_the_covered_count(memory: Memory) -> None:
    with pytest.raises(NotFoundError):
        memory.set_summary("nobody", "x", 0)
    memory.append(turn("s1", 1))
    with pytest.raises(InputError, match=r"0\.\.1 turns"):
        memory.set_summary("s1", "x", 2)
    assert memory.summary("s1") is None


@pytest.mark.parametrize("bad", ["", "a b", "x" * 129, "../etc/passwd", "a:b", "é", "a*"])
def test_invalid_session_ids_are_rejected(memory: Memory, bad: str) -> None:
    with pytest.raises(InputError, match="session id"):
        memory.append(turn(bad, 1))
    for call in (memory.turns, memory.exists, memory.delete, memory.summary):
        with pytest.raises(InputError):
            call(bad)
    assert memory.sessions() == []


def test_longest_valid_session_id_is_accepted(memory: Memory) -> None:
    sid = "A-z_0." + "x" * 122
    memory.append(turn(sid, 1))
    assert [s.session_id for s in memory.sessions()] == [sid]


def test_history_survives_reopening(memory_env: MemoryEnv) -> None:
    first = memory_env.open()
    first.append(turn("s1", 1))
    first.set_summary("s1", "kept", 1)
    first.close()
    second = memory_env.open()
    assert questions(second.turns("s1")) == ["question 1?"]
    assert second.summary("s1") == "kept"


def test_concurrent_appends_from_threads_are_all_kept_in_order(memory: Memory) -> None:
    def worker(k: int) -> None:
        for n in range(20):
            memory.append(turn(f"t{k}", n))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        assert questions(memory.turns(f"t{k}")) == [f"question {n}?" for n in range(20)]


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
