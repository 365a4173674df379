"""Stand-ins shared by tests: a scripted LLM and an embedder that counts what it embeds.

`FakeLLM(reply)` answers every call with `reply`; `FakeLLM(a, b, c)` answers in turn and keeps
answering with the last. A reply that is an exception is raised instead. Every request is
recorded in `calls` as `(messages, json_mode)`.

`CountingEmbedder(inner)` embeds with `inner` (the hashing embedder by default) and records
each query and each batch of documents, so a test can assert how often a text was embedded.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from citewise.embed.base import Embedder, Vectors
from citewise.embed.hashing import HashingEmbedder
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


class CountingEmbedder:
    """An `Embedder` that records every text it embeds, by kind."""

    def __init__(self, inner: Embedder | None = None) -> None:
        self.inner: Embedder = inner if inner is not None else HashingEmbedder()
        self.name = self.inner.name
        self.dim = self.inner.dim
        self.max_tokens = self.inner.max_tokens
        self.queries: list[str] = []
        self.document_batches: list[list[str]] = []

    @property
    def documents(self) -> list[str]:
        """Every document text embedded, in order."""
        return [t for batch in self.document_batches for t in batch]

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        self.document_batches.append(list(texts))
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> Vectors:
        self.queries.append(text)
        return self.inner.embed_query(text)

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def reset(self) -> None:
        self.queries.clear()
        self.document_batches.clear()
