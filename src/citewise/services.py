"""The composition root: builds the store (chosen by URL), embedder, LLM, reranker, memory,
retriever and answerer from `Settings`, and `Services`, the one facade the CLI and the HTTP
API both call. `citewise.Assistant` and `ChatAssistant` stay the public Python API; this
module wires one of each and shares them between threads."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from citewise.assistant import Assistant
from citewise.chat.memory import Memory, Turn, create_memory
from citewise.config import Settings
from citewise.errors import NotFoundError
from citewise.ingest.pipeline import IngestProgress
from citewise.llm import LLM
from citewise.retrieve.collections import search_collections
from citewise.store.base import Store
from citewise.store.registry import STORES, StoreFactory
from citewise.store.registry import open_store as open_store_url
from citewise.types import (
    Answer,
    DocumentInfo,
    Done,
    Event,
    IngestReport,
    SearchFilter,
    SearchResult,
)

if TYPE_CHECKING:
    from citewise.chat.conversation import ChatAssistant


def register_store(scheme: str, factory: StoreFactory) -> None:
    """Adds a store backend for URLs `scheme://…`."""
    STORES[scheme] = factory


def store_url(settings: Settings) -> str:
    """`CITEWISE_STORE`, or the SQLite file in the data directory."""
    return settings.store_url


def open_store(settings: Settings) -> Store:
    return open_store_url(settings.store_url, pool_size=settings.store_pool_size)


def is_postgres(url: str) -> bool:
    return url.split(":", 1)[0].split("+", 1)[0].lower() in ("postgresql", "postgres")


def memory_url(settings: Settings) -> str:
    """`CITEWISE_MEMORY` when set to a server (Redis, another database); with the default
    (SQLite) and a PostgreSQL store, the store's database, so every process that shares the
    store shares the conversations."""
    if settings.memory.strip().lower() == "sqlite" and is_postgres(settings.store_url):
        return settings.store_url
    return settings.memory


def open_memory(settings: Settings) -> Memory:
    return create_memory(
        memory_url(settings), settings.data_dir, ttl_seconds=int(settings.session_ttl_hours * 3600)
    )


def final_answer(flow: Iterator[Event]) -> Answer:
    """Runs a flow to its end (the turn is saved after `Done`) and returns the answer."""
    answer = None
    for event in flow:
        if isinstance(event, Done):
            answer = event.answer
    if answer is None:
        raise RuntimeError("the answer flow ended without an answer")
    return answer


class Services:
    """One of each component for a process; every method is safe to call from any thread."""

    def __init__(
        self,
        settings: Settings,
        *,
        llm: LLM | None = None,
        memory: Memory | None = None,
    ) -> None:
        self.settings = settings
        self.assistant = Assistant(settings=settings)
        self._llm, self._memory = llm, memory
        self._chat: ChatAssistant | None = None
        self._chat_lock = threading.Lock()
        self._ingest_lock = threading.Lock()
        # called with every finished answer (the API records metrics and spans with it)
        self.on_answer: Callable[[Answer], None] | None = None

    @property
    def chat(self) -> ChatAssistant:
        """The conversation flow, built on first use (ingest and search do without it)."""
        with self._chat_lock:
            if self._chat is None:
                from citewise.chat.conversation import ChatAssistant

                memory = self._memory or open_memory(self.settings)
                self._chat = ChatAssistant(self.assistant, llm=self._llm, memory=memory)
            return self._chat

    @property
    def store(self) -> Store:
        return self.assistant.store

    @property
    def memory(self) -> Memory:
        return self.chat.memory

    @property
    def llm_name(self) -> str:
        return self.settings.llm or "extractive"

    def warm_up(self) -> None:
        """Loads the embedder before the first question needs it."""
        self.assistant.embedder().embed_query("warm up")

    def close(self) -> None:
        if self._chat is not None:
            self._chat.close()
        self.assistant.close()

    # -- answers ---------------------------------------------------------------------

    def answer_collection(self, collections: Sequence[str]) -> str:
        """The collection whose documents a question's titles and summaries come from: the
        first readable one that holds documents (the caller's own before the global one)."""
        if not collections:
            raise NotFoundError("no collection is readable for this caller")
        for name in collections:
            if self.store.has_documents(name):
                return name
        return collections[0]

    def stream(
        self, question: str, *, session_id: str | None, collections: Sequence[str]
    ) -> Iterator[Event]:
        """The chat flow's events; validation errors raise before the first event. Every
        collection is searched, in order, merged with each passage once."""
        flow = self.chat.stream(
            question, session_id=session_id, collection=self.answer_collection(collections),
            also=collections,
        )  # fmt: skip
        return flow if self.on_answer is None else self._observed(flow, self.on_answer)

    @staticmethod
    def _observed(flow: Iterator[Event], hook: Callable[[Answer], None]) -> Iterator[Event]:
        for event in flow:
            if isinstance(event, Done):
                hook(event.answer)
            yield event

    def ask(self, question: str, *, session_id: str | None, collections: Sequence[str]) -> Answer:
        return final_answer(self.stream(question, session_id=session_id, collections=collections))

    def search(self, query: str, *, k: int, collections: Sequence[str]) -> SearchResult:
        """Each collection searched in the store, merged in order, each passage once."""
        if not collections:
            raise NotFoundError("no collection is readable for this caller")
        return search_collections(
            lambda flt: self.assistant.search(query, k=k, collection=flt.collection),
            collections, SearchFilter(collection=collections[0]), k,
        )  # fmt: skip

    # -- documents -------------------------------------------------------------------

    def documents(self, collection: str) -> list[DocumentInfo]:
        return self.assistant.documents(collection=collection)

    def document(self, collection: str, source: str) -> DocumentInfo:
        doc = self.store.find_document(collection, source)
        if doc is None:
            raise NotFoundError(f"no document '{source}' in collection '{collection}'")
        return doc

    def find_by_hash(self, collection: str, content_hash: str) -> DocumentInfo | None:
        return next((d for d in self.documents(collection) if d.content_hash == content_hash), None)

    def delete(self, collection: str, source: str) -> DocumentInfo:
        return self.assistant.delete(source, collection=collection)

    def ingest(
        self,
        paths: Sequence[Path],
        *,
        collection: str,
        progress: IngestProgress | None = None,
    ) -> IngestReport:
        """One ingest at a time per process: runs share the embedder's threads."""
        with self._ingest_lock:
            return self.assistant.ingest(paths, collection=collection, progress=progress)

    # -- conversations ---------------------------------------------------------------

    def history(self, session_id: str) -> list[Turn]:
        self.memory.require(session_id)
        return self.memory.turns(session_id)

    def delete_session(self, session_id: str) -> None:
        if not self.memory.delete(session_id):
            raise NotFoundError(f"no conversation session {session_id!r} (unknown or expired)")
