"""`citewise.Assistant`, the one facade: documents in (ingest, reindex, backup), passages
out (search), cited answers (ask, stream); its method groups add documents and passages
(`documents.py`), conversations (`conversations.py`) and the knowledge graph (`graph.py`).
The CLI, the HTTP API, MCP, the workers, `citewise eval`/`bench` and the Python API all
call it; `services.build` wires the parts behind it (docs/facade.md)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citewise.assistant.conversations import ConversationMethods
from citewise.assistant.documents import DocumentMethods
from citewise.assistant.graph import GraphMethods
from citewise.chat.memory import Memory
from citewise.config import Settings, load_settings
from citewise.embed.base import Embedder
from citewise.errors import NotFoundError
from citewise.ingest.pipeline import IngestProgress
from citewise.ingest.web.fetch import WebLimits
from citewise.jobs import JobQueue
from citewise.llm import LLM
from citewise.retrieve.collections import search_collections
from citewise.services import Components, build
from citewise.types import (
    Answer,
    Done,
    Event,
    IngestReport,
    SearchFilter,
    SearchMode,
    SearchResult,
)

if TYPE_CHECKING:
    from citewise.answer.slots import AnswerSlots
    from citewise.auth.service import AuthService
    from citewise.auth.store import AuthStore
    from citewise.db.backup import BackupReport
    from citewise.workers.process import Backoff


def final_answer(flow: Iterable[Event]) -> Answer:
    """Runs a flow to its end (the turn is saved after `Done`) and returns the answer."""
    answer = None
    for event in flow:
        if isinstance(event, Done):
            answer = event.answer
    if answer is None:
        raise RuntimeError("the answer flow ended without an answer")
    return answer


class Assistant(DocumentMethods, ConversationMethods, GraphMethods):
    """Documents in, cited answers out. Every method is safe to call from any thread.

    >>> with Assistant(data_dir="~/.citewise") as a:            # doctest: +SKIP
    ...     a.ingest(["~/docs"])
    ...     a.search("how do I rotate the logs", k=5).hits
    ...     a.ask("How do I rotate the logs?").answer
    """

    def __init__(
        self,
        data_dir: str | Path | None = None,
        *,
        collection: str | None = None,
        embedder: str | Embedder | None = None,
        settings: Settings | None = None,
        llm: LLM | None = None,
        memory: Memory | None = None,
        components: Components | None = None,
        **overrides: Any,
    ) -> None:
        if components is None:
            settings = settings or load_settings(
                data_dir=Path(data_dir).expanduser() if data_dir else None,
                collection=collection,
                embedder=embedder if isinstance(embedder, str) else None,
                **overrides,
            )
            given = None if isinstance(embedder, str) else embedder
            components = build(settings, embedder=given, llm=llm, memory=memory)
        self._parts = components
        self.settings = components.settings
        # called with every finished answer (the API records metrics and spans with it)
        self.on_answer: Callable[[Answer], None] | None = None

    # -- the process -------------------------------------------------------------------

    @property
    def auth(self) -> AuthService:
        """Credentials: sign-in, tokens, API keys checked, rate limits (the servers' door)."""
        return self._parts.auth.get()

    @property
    def users(self) -> AuthStore:
        """Users, groups, grants and API keys (without the token and rate-limit side)."""
        return self._parts.auth_store.get()

    @property
    def llm_name(self) -> str:
        return self.settings.llm or "extractive"

    def job_queue(self) -> JobQueue:
        """The upload jobs (`settings.jobs`: in this process, or the `citewise worker`
        processes); closed with the assistant."""
        return self._parts.jobs.get()

    def answer_slots(self) -> AnswerSlots:
        """The bounded answer threads a server admits each answer to (429 past the queue)."""
        return self._parts.answer_slots.get()

    def ingest_from_queue(
        self,
        *,
        threads: int = 1,
        stop: threading.Event | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        """Ingests the files sent to the queue (`settings.queue`: `citewise enqueue`, upload
        jobs) until `stop` is set, or SIGTERM/SIGINT in the main thread (`citewise worker`)."""
        from citewise.workers.process import serve

        parts = self._parts
        serve(self.settings, parts.open_store, parts.embedder.get, threads=threads, stop=stop,
              backoff=backoff)  # fmt: skip

    def with_memory(self, memory: str) -> Assistant:
        """Another assistant over the same documents whose conversations are kept in
        `memory` (a memory URL, e.g. `sqlite:///PATH`), sharing this one's embedder; its
        owner closes it."""
        settings = self.settings.model_copy(update={"memory": memory})
        return Assistant(components=build(settings, embedder=self._parts.embedder.get()))

    def warm_up(self) -> None:
        """Loads the embedder before the first question needs it."""
        self._parts.embedder.get().embed_query("warm up")

    def close(self) -> None:
        self._parts.close()

    def __enter__(self) -> Assistant:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- documents -------------------------------------------------------------------

    def ingest(
        self,
        paths: Sequence[str | Path],
        *,
        collection: str | None = None,
        prune: bool = False,
        progress: IngestProgress | None = None,
        uploads: bool = False,
        web: WebLimits | None = None,
    ) -> IngestReport:
        """One ingest at a time per assistant: runs share the embedder's threads. Sources
        are paths from the collection's root (docs/identity.md); with `uploads`, each
        file's own name (an upload comes from no folder). `paths` may hold http(s)
        addresses: their pages are fetched first (`ingest.web`)."""
        return self._parts.ingester.get().ingest(
            paths, collection=collection or self.collection, prune=prune, progress=progress,
            uploads=uploads, web=web,
        )  # fmt: skip

    def reindex(
        self,
        *,
        collection: str | None = None,
        progress: IngestProgress | None = None,
        new_embedder: bool = False,
    ) -> IngestReport:
        """Re-parses the documents stored by other parsing or chunking (all collections,
        or `collection`), embeds every chunk without a vector and clears the store's note
        that a reindex is needed. Vectors of another embedder than the configured one are
        made anew only with `new_embedder` (else InputError). Resumable: run it again."""
        names = [collection] if collection else self._store().collections()
        report = self._parts.ingester.get().reindex(
            names or [self.collection], progress=progress, new_embedder=new_embedder
        )
        if not collection:
            self._store().clear_reindex()
        return report

    def backup(self, out: Path) -> BackupReport:
        """A consistent copy of the data directory in one file, taken while other threads
        and processes keep answering and ingesting (`citewise restore` reads it). A
        PostgreSQL store's database is not in it: back it up with pg_dump (docs/backup.md)."""
        from importlib.metadata import version as release

        from citewise.db.backup import snapshot

        version, _ = self._store().schema_version()
        about = {"citewise": release("citewise"), "schema_version": version,
                 "store": "sqlite" if self.settings.store is None else "external"}  # fmt: skip
        return snapshot(self.settings.data_dir, out, about=about)

    # -- search ----------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        mode: SearchMode = "hybrid",
        collection: str | None = None,
        collections: Sequence[str] = (),
        sources: Sequence[str] = (),
        category: str | None = None,
        tags: Sequence[str] = (),
    ) -> SearchResult:
        """`collection` (default: the assistant's), or each of `collections` in order,
        merged with each passage once."""
        flt = SearchFilter(
            collection=collection or (collections[0] if collections else self.collection),
            sources=tuple(sources),
            category=category,
            tags=tuple(tags),
        )
        if not collections:
            return self._parts.retriever.get().search(query, k=k, mode=mode, flt=flt)
        return search_collections(
            lambda f: self._parts.retriever.get().search(query, k=k, mode=mode, flt=f),
            collections,
            flt,
            k,
        )

    # -- answers ---------------------------------------------------------------------

    def answer_collection(self, collections: Sequence[str]) -> str:
        """The collection whose documents a question's titles and summaries come from: the
        first readable one that holds documents (the caller's own before the global one)."""
        if not collections:
            raise NotFoundError("no collection is readable for this caller")
        for name in collections:
            if self._store().has_documents(name):
                return name
        return collections[0]

    def stream(
        self,
        question: str,
        *,
        session_id: str | None = None,
        collection: str | None = None,
        collections: Sequence[str] = (),
    ) -> Iterator[Event]:
        """The answer flow's events; validation errors raise before the first event.
        Searches `collection` (default: the assistant's), or each of `collections` in order,
        merged with each passage once."""
        searched = list(collections) or [collection or self.collection]
        primary = self.answer_collection(searched)
        flow = self._parts.conversation.get().stream(
            question, session_id=session_id, collections=[primary, *searched]
        )
        return flow if self.on_answer is None else _observed(flow, self.on_answer)

    def ask(
        self,
        question: str,
        *,
        session_id: str | None = None,
        collection: str | None = None,
        collections: Sequence[str] = (),
    ) -> Answer:
        """`stream` run to its end: the final answer."""
        return final_answer(
            self.stream(
                question, session_id=session_id, collection=collection, collections=collections
            )
        )


def _observed(flow: Iterator[Event], hook: Callable[[Answer], None]) -> Iterator[Event]:
    for event in flow:
        if isinstance(event, Done):
            hook(event.answer)
        yield event
