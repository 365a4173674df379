"""Conversations through the facade: sessions, their turns and summary, forgetting one, and
replaying a client's own history (the OpenAI route sends the whole conversation each time)."""

from __future__ import annotations

from collections.abc import Iterable

from citewise.assistant.base import FacadeBase
from citewise.chat.memory import SessionInfo, Turn
from citewise.errors import NotFoundError


class ConversationMethods(FacadeBase):
    def sessions(self) -> list[SessionInfo]:
        """Live conversation sessions, most recent first."""
        return self._memory().sessions()

    def has_session(self, session_id: str) -> bool:
        return self._memory().exists(session_id)

    def history(self, session_id: str) -> list[Turn]:
        """The turns of a session (`NotFoundError` when it is unknown or expired)."""
        memory = self._memory()
        memory.require(session_id)
        return memory.turns(session_id)

    def turns(self, session_id: str) -> list[Turn]:
        """The turns of a session; none when it is unknown or expired."""
        return self._memory().turns(session_id)

    def session_summary(self, session_id: str) -> str | None:
        """The running summary of a session's earlier turns, once it has one."""
        return self._memory().summary(session_id)

    def delete_session(self, session_id: str) -> None:
        """`NotFoundError` when it is unknown or expired."""
        if not self._memory().delete(session_id):
            raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")

    def forget_session(self, session_id: str) -> bool:
        """Deletes a session if it is there (a one-shot question's throwaway session)."""
        return self._memory().delete(session_id)

    def replay(self, session_id: str, exchanges: Iterable[tuple[str, str]]) -> None:
        """Earlier (question, answer) pairs a client kept itself, as turns of `session_id`,
        so a follow-up is read against them."""
        memory = self._memory()
        for question, answer in exchanges:
            memory.append(
                Turn(session_id=session_id, question=question, answer=answer, intent="question")
            )
