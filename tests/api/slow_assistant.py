"""An `Assistant` whose answer to a question is what the test's `flow` yields, as slowly as
it yields it: a test holds answers open (a full answer pool) or sees the flow closed (a client
that left)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from citewise.assistant import Assistant
from citewise.config import Settings
from citewise.types import Event


class SlowAssistant(Assistant):
    def __init__(self, settings: Settings, flow: Callable[[str], Iterator[Event]]) -> None:
        super().__init__(settings=settings)
        self._flow = flow

    def stream(
        self,
        question: str,
        *,
        session_id: str | None = None,
        collection: str | None = None,
        collections: Sequence[str] = (),
    ) -> Iterator[Event]:
        return self._flow(question)
