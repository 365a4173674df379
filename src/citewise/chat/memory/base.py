"""The `Memory` protocol every conversation-memory backend implements, and its value types.

A session is created by its first `append` and lives `ttl_seconds` after its last write
(append, `set_summary`, `clear`); an expired session does not exist. Turns come back oldest
first. A summary covers the oldest `covered_turns` turns, which `recent_context` then skips.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol, Self, runtime_checkable

from citewise.errors import InputError, MemoryBackendError, NotFoundError
from citewise.types.positions import LineBox, box_of

DEFAULT_TTL_SECONDS = 24 * 3600
SESSION_ID_PATTERN = re.compile(r"[A-Za-z0-9_.-]{1,128}")


def validate_session_id(session_id: str) -> str:
    """Returns the id unchanged, or raises InputError: 1-128 chars of [A-Za-z0-9_.-]."""
    if not isinstance(session_id, str) or not SESSION_ID_PATTERN.fullmatch(session_id):
        raise InputError(
            f"invalid session id {session_id!r}: use 1-128 letters, digits, '_', '.' or '-'"
        )
    return session_id


@dataclass(frozen=True, slots=True)
class TurnSource:
    """A passage an answer cited or was built from."""

    source: str
    page: int | None
    section: str
    chunk_id: int
    quote: str = ""
    doc_hash: str = ""  # the cited file's kept original (web UI)
    boxes: tuple[LineBox, ...] = ()  # the quote's lines on PDF pages, as cited

    def to_json(self) -> dict[str, object]:
        return {
            "source": self.source,
            "page": self.page,
            "section": self.section,
            "chunk_id": self.chunk_id,
            "quote": self.quote,
            "doc_hash": self.doc_hash or None,
            "boxes": [b.to_json() for b in self.boxes],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnSource:
        boxes = tuple(box_of(b) for b in data.get("boxes") or ())
        return cls(
            str(data["source"]), data.get("page"), str(data["section"]), int(data["chunk_id"]),
            str(data.get("quote") or ""), str(data.get("doc_hash") or ""), boxes,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Turn:
    """One question and its answer, as saved after the answer was delivered."""

    session_id: str
    question: str
    answer: str
    intent: str
    rewritten_query: str | None = None
    sources: tuple[TurnSource, ...] = ()
    created_at: float = field(default_factory=time.time)

    def to_json(self) -> str:
        return json.dumps(
            {
                "session_id": self.session_id,
                "question": self.question,
                "answer": self.answer,
                "intent": self.intent,
                "rewritten_query": self.rewritten_query,
                "sources": [s.to_json() for s in self.sources],
                "created_at": self.created_at,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Turn:
        data: dict[str, Any] = json.loads(text)
        return cls(
            session_id=str(data["session_id"]),
            question=str(data["question"]),
            answer=str(data["answer"]),
            intent=str(data["intent"]),
            rewritten_query=data.get("rewritten_query"),
            sources=tuple(TurnSource.from_json(s) for s in data.get("sources", ())),
            created_at=float(data["created_at"]),
        )


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """A live session. `covered_turns` is how many of the oldest turns the summary covers."""

    session_id: str
    turns: int
    created_at: float
    updated_at: float
    has_summary: bool
    covered_turns: int = 0
    expires_at: float | None = None


@runtime_checkable
class Memory(Protocol):
    """Conversation history per session. `url` names the backend in messages (no password)."""

    url: str
    ttl_seconds: int

    def append(self, turn: Turn) -> None:
        """Saves a turn (creating the session) and refreshes the session's TTL, atomically."""
        ...

    def turns(self, session_id: str, last: int | None = None) -> list[Turn]:
        """The session's turns, oldest first (only the `last` n if given); [] if unknown."""
        ...

    def summary(self, session_id: str) -> str | None: ...

    def set_summary(self, session_id: str, summary: str, covered_turns: int) -> None:
        """Stores a summary of the oldest `covered_turns` turns (NotFoundError if unknown)."""
        ...

    def info(self, session_id: str) -> SessionInfo | None: ...

    def require(self, session_id: str) -> SessionInfo:
        """The session's info, or NotFoundError naming the session."""
        ...

    def sessions(self) -> list[SessionInfo]:
        """Live sessions, most recently updated first."""
        ...

    def exists(self, session_id: str) -> bool: ...

    def delete(self, session_id: str) -> bool:
        """Removes the session; False if there was none."""
        ...

    def clear(self, session_id: str) -> None:
        """Keeps the session but drops its turns and summary (NotFoundError if unknown)."""
        ...

    def close(self) -> None: ...


class MemoryBase:
    """Shared helpers for the backends: `require`, `exists`, context management."""

    url: str
    _closed: bool = False

    def info(self, session_id: str) -> SessionInfo | None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def require(self, session_id: str) -> SessionInfo:
        found = self.info(session_id)
        if found is None:
            raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
        return found

    def exists(self, session_id: str) -> bool:
        return self.info(session_id) is not None

    def _check_open(self) -> None:
        if self._closed:
            raise MemoryBackendError(f"conversation memory {self.url} is closed")

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"
