"""The conversation-memory contract kit: every `Memory` backend passes the same tests.

A backend's test module subclasses `MemoryContractTests` and provides a `memory_env`
fixture, a `MemoryHarness` that opens memories of the backend over one fresh storage:

    class TestMyMemory(MemoryContractTests):
        @pytest.fixture
        def memory_env(self, tmp_path: Path) -> Iterator[MemoryHarness]:
            harness = MemoryHarness(lambda ttl, clock: MyMemory(tmp_path, ttl, clock=clock))
            yield harness
            harness.close()

A backend that takes a clock is tested on a fake one (`advance` moves it on); one whose
server enforces the TTL (Redis) passes `real_time=True`, and `advance` then sleeps.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from citewise.chat.history_summary import recent_context
from citewise.chat.memory import Memory, Turn, TurnSource
from citewise.errors import InputError, NotFoundError

# (ttl_seconds, clock) → a memory over the harness's storage
OpenMemory = Callable[[int, Callable[[], float]], Memory]


class MemoryHarness:
    """Opens memories of one backend over the same storage; `advance` moves time on."""

    def __init__(self, open_memory: OpenMemory, *, real_time: bool = False) -> None:
        self._open = open_memory
        self.real_time = real_time
        self.now = 1_700_000_000.0
        self.opened: list[Memory] = []

    def _clock(self) -> float:
        return time.time() if self.real_time else self.now

    def open(self, ttl_seconds: int = 3600) -> Memory:
        memory = self._open(ttl_seconds, self._clock)
        self.opened.append(memory)
        return memory

    def advance(self, seconds: float) -> None:
        if self.real_time:
            time.sleep(seconds)
        else:
            self.now += seconds

    def close(self) -> None:
        for memory in self.opened:
            memory.close()


def turn(session_id: str, n: int) -> Turn:
    return Turn(session_id, f"question {n}?", f"Answer {n}. More [1].", "question")


def questions(turns: list[Turn]) -> list[str]:
    return [t.question for t in turns]


class MemoryContractTests:
    """The `Memory` protocol's contract. A subclass provides a `memory_env` fixture: a
    `MemoryHarness` over fresh storage of its backend (closed after the test); the
    `memory` fixture is the memory it opens first."""

    @pytest.fixture
    def memory(self, memory_env: MemoryHarness) -> Memory:
        return memory_env.open()

    def test_turns_come_back_oldest_first_with_every_field(self, memory: Memory) -> None:
        first = Turn(
            "s1",
            "Wie groß ist das Limit? 🚀",
            "Es sind 10 MB [1].",
            "followup",
            rewritten_query="upload size limit",
            sources=(
                TurnSource("guide.pdf", 3, "Guide > Limits", 42),
                TurnSource("a.md", None, "", 7),
            ),
            created_at=1234.5,
        )
        memory.append(first)
        memory.append(turn("s1", 2))
        got = memory.turns("s1")
        assert got[0] == first
        assert questions(got) == ["Wie groß ist das Limit? 🚀", "question 2?"]

    def test_last_returns_only_the_most_recent_turns_in_order(self, memory: Memory) -> None:
        for n in range(6):
            memory.append(turn("s1", n))
        assert questions(memory.turns("s1", last=2)) == ["question 4?", "question 5?"]
        assert len(memory.turns("s1", last=100)) == 6
        assert memory.turns("s1", last=0) == []

    def test_two_sessions_never_see_each_others_turns(self, memory: Memory) -> None:
        for n in range(3):
            memory.append(turn("alice", n))
            memory.append(turn("alice.2", 10 + n))
        assert questions(memory.turns("alice")) == ["question 0?", "question 1?", "question 2?"]
        assert all(t.session_id == "alice.2" for t in memory.turns("alice.2"))
        memory.set_summary("alice", "about alice", 1)
        assert memory.summary("alice.2") is None
        memory.delete("alice")
        assert len(memory.turns("alice.2")) == 3

    def test_unknown_session_has_no_turns_and_require_raises_not_found(
        self, memory: Memory
    ) -> None:
        assert memory.turns("nobody") == []
        assert memory.summary("nobody") is None
        assert not memory.exists("nobody")
        assert memory.info("nobody") is None
        with pytest.raises(NotFoundError, match="nobody"):
            memory.require("nobody")

    def test_session_expires_after_its_ttl_without_activity(
        self, memory_env: MemoryHarness
    ) -> None:
        memory = memory_env.open(ttl_seconds=1)
        memory.append(turn("short", 1))
        assert memory.require("short").turns == 1
        memory_env.advance(1.6)
        assert not memory.exists("short")
        assert memory.turns("short") == []
        assert [s.session_id for s in memory.sessions()] == []
        memory.append(turn("short", 2))  # a new session: the expired turns do not come back
        assert questions(memory.turns("short")) == ["question 2?"]

    def test_append_refreshes_the_session_ttl(self, memory_env: MemoryHarness) -> None:
        memory = memory_env.open(ttl_seconds=60)
        memory.append(turn("s1", 1))
        before = memory.require("s1").expires_at
        memory_env.advance(0.5)
        memory.append(turn("s1", 2))
        after = memory.require("s1").expires_at
        assert before is not None and after is not None
        assert after - before >= 0.3
        assert after - memory.require("s1").updated_at == pytest.approx(60, abs=1.5)

    def test_delete_removes_the_session_and_says_whether_it_existed(self, memory: Memory) -> None:
        memory.append(turn("s1", 1))
        memory.set_summary("s1", "summary", 1)
        assert memory.delete("s1") is True
        assert not memory.exists("s1")
        assert memory.turns("s1") == [] and memory.summary("s1") is None
        assert memory.delete("s1") is False

    def test_clear_keeps_the_session_but_drops_turns_and_summary(self, memory: Memory) -> None:
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
        self,
        memory_env: MemoryHarness,
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

    def test_summary_covers_older_turns_in_recent_context(self, memory: Memory) -> None:
        for n in range(6):
            memory.append(turn("s1", n))
        memory.set_summary("s1", "The user asked about limits.", 4)
        info = memory.require("s1")
        assert (info.turns, info.has_summary, info.covered_turns) == (6, True, 4)
        summary, recent = recent_context(memory, "s1", last=5)
        assert summary == "The user asked about limits."
        assert questions(recent) == ["question 4?", "question 5?"]
        assert len(memory.turns("s1")) == 6  # covered turns stay in the history

    def test_set_summary_checks_the_session_and_the_covered_count(self, memory: Memory) -> None:
        with pytest.raises(NotFoundError):
            memory.set_summary("nobody", "x", 0)
        memory.append(turn("s1", 1))
        with pytest.raises(InputError, match=r"0\.\.1 turns"):
            memory.set_summary("s1", "x", 2)
        assert memory.summary("s1") is None

    @pytest.mark.parametrize("bad", ["", "a b", "x" * 129, "../etc/passwd", "a:b", "é", "a*"])
    def test_invalid_session_ids_are_rejected(self, memory: Memory, bad: str) -> None:
        with pytest.raises(InputError, match="session id"):
            memory.append(turn(bad, 1))
        for call in (memory.turns, memory.exists, memory.delete, memory.summary):
            with pytest.raises(InputError):
                call(bad)
        assert memory.sessions() == []

    def test_longest_valid_session_id_is_accepted(self, memory: Memory) -> None:
        sid = "A-z_0." + "x" * 122
        memory.append(turn(sid, 1))
        assert [s.session_id for s in memory.sessions()] == [sid]

    def test_history_survives_reopening(self, memory_env: MemoryHarness) -> None:
        first = memory_env.open()
        first.append(turn("s1", 1))
        first.set_summary("s1", "kept", 1)
        first.close()
        second = memory_env.open()
        assert questions(second.turns("s1")) == ["question 1?"]
        assert second.summary("s1") == "kept"

    def test_concurrent_appends_from_threads_are_all_kept_in_order(self, memory: Memory) -> None:
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
