"""The test-only door: the parts behind an `Assistant`, for tests and benchmarks that look
inside (a store's rows, the conversation object, a retriever's options). The product's doors
never use it: tests/test_facade.py fails on an import of this module anywhere in `src/`
outside the composition root (docs/facade.md)."""

from __future__ import annotations

from dataclasses import dataclass

from citewise.assistant.facade import Assistant
from citewise.chat.memory import Memory
from citewise.embed.base import Embedder
from citewise.retrieve.retriever import HybridRetriever
from citewise.services import Components
from citewise.store.base import Store


@dataclass(frozen=True)
class Inside:
    parts: Components

    @property
    def store(self) -> Store:
        return self.parts.store.get()

    @property
    def memory(self) -> Memory:
        return self.parts.memory.get()

    def embedder(self) -> Embedder:
        return self.parts.embedder.get()

    def retriever(self, *, candidates: bool = False) -> HybridRetriever:
        """The hybrid retriever of `search`, or with `candidates` the one that gathers the
        answer flow's candidates for reranking (deeper lists, see `Settings`)."""
        return (self.parts.candidates if candidates else self.parts.retriever).get()


def inside(assistant: Assistant) -> Inside:
    """What is behind `assistant` (tests and benchmarks only)."""
    return Inside(assistant._parts)
