"""A scripted in-process LLM for unit tests (the HTTP clients have their own scripted server).

`FakeLLM(reply)` answers every call with `reply`; `FakeLLM(a, b, c)` answers in turn and keeps
answering with the last. A reply that is an exception is raised instead. Every request is
recorded in `calls` as `(messages, json_mode)`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from citewise.llm.base import Completion, Message


class Call(NamedTuple):
    messages: list[Message]
    json_mode: bool


class FakeLLM:
    def __init__(self, *replies: str | Exception, name: str = "fake:llm") -> None:
        self.name = name
        self.replies = list(replies)
        self.calls: list[Call] = []

    @property
    def prompts(self) -> list[str]:
        """The last message of every request."""
        return [c.messages[-1].content for c in self.calls]

    def complete(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Completion:
        self.calls.append(Call(list(messages), json_mode))
        if not self.replies:
            raise AssertionError("the test scripted no reply for this call")
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        if isinstance(reply, Exception):
            raise reply
        return Completion(text=reply, model=self.name)

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Iterator[str]:
        yield self.complete(messages, json_mode=json_mode).text

    def health(self) -> None:
        return None
