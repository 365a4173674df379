"""`citewise.Assistant`, the one facade: documents in (ingest, reindex, backup), passages
out (search), cited answers (ask, stream); its method groups add documents and passages
(`documents.py`), conversations (`conversations.py`) and the knowledge graph (`graph.py`).
The CLI, the HTTP API, MCP, the workers, `citewise eval`/`bench` and the Python API all
call it; `services.build` wires the parts behind it (docs/facade.md)."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citewise.assistant.conversations import ConversationMethods
from citewise.assistant.documents import DocumentMethods
from citewise.assistant.graph import GraphMethods
from citewise.chat.memory import Memory
from citewise.config import Settings, load_settings, unembedded_kinds
from citewise.embed.base import Embedder
from citewise.errors import InputError, NotFoundError
from citewise.ingest.chunking import ChunkingOptions
from citewise.ingest.pipeline import IngestJob, IngestProgress, run_ingest
from citewise.ingest.streamed import StreamLimits
from citewise.ingest.web.fetch import WebLimits
from citewise.ingest.web.pages import fetch_pages, is_web_address, web_limits, with_fetch_outcomes
from citewise.llm import LLM
from citewise.retrieve.collections import search_collections
from citewise.retrieve.retriever import HybridRetriever
from citewise.services import Components, build
from citewise.store.base import Store
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
    from citewise.auth.service import AuthService
    from citewise.auth.store import AuthStore
    from citewise.db.backup import BackupReport


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
        self._ingest_lock = threading.Lock()
        # called with every finished answer (the API records metrics and spans with it)
        self.on_answer: Callable[[Answer], None] | None = None

    # -- looking inside (tests and benchmarks only) -----------------------------------
    # The product's doors (API, MCP, CLI, workers) use the methods below and never these;
    # tests/test_facade.py fails on any use of them in `src/` outside the composition root.

    @property
    def parts(self) -> Components:
        return self._parts

    @property
    def store(self) -> Store:
        return self._parts.store.get()

    @property
    def memory(self) -> Memory:
        return self._parts.memory.get()

    def retriever(self, *, pool: bool = False) -> HybridRetriever:
        """The hybrid retriever of `search`, or with `pool` the one that gathers the answer
        flow's candidates for reranking (other list depths, see `Settings`)."""
        return (self._parts.candidates if pool else self._parts.retriever).get()

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

    def embedder(self) -> Embedder:
        return self._parts.embedder.get()

    def open_store(self, *, pool_size: int | None = None) -> Store:
        """A store of its own, for a thread that may not share `store`."""
        return self._parts.open_store(pool_size=pool_size)

    def warm_up(self) -> None:
        """Loads the embedder before the first question needs it."""
        self.embedder().embed_query("warm up")

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
        collection = collection or self.collection
        urls = [p for p in paths if isinstance(p, str) and is_web_address(p)]
        fetched = None
        if urls:
            fetched = fetch_pages(
                urls, self.settings.web_dir / collection, web or web_limits(self.settings)
            )
        files = [p for p in paths if p not in urls]
        files += [fetched.folder] if fetched and fetched.saved else []
        job = self._ingest_job(files, collection, prune, uploads)
        with self._ingest_lock:
            report = run_ingest(job, self.open_store, self.embedder, progress)
        return with_fetch_outcomes(report, fetched)

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
        from citewise.ingest.pipeline import pipeline_key
        from citewise.ingest.reindex import reindex_candidates

        made_by, name = self._store().vectors_embedder(), self.embedder().name
        if made_by is not None and made_by != name:
            if not new_embedder:
                raise InputError(
                    f"the stored vectors were made by embedder '{made_by}', not '{name}':"
                    " configure that one, or pass --new-embedder to embed every chunk again"
                )
            self._store().forget_vectors()

        names = [collection] if collection else self._store().collections()
        reports: list[IngestReport] = []
        with self._ingest_lock, tempfile.TemporaryDirectory(prefix="citewise-reindex-") as tmp:
            for i, name in enumerate(names or [self.collection]):
                job = self._ingest_job([], name, False, False)
                found = partial(reindex_candidates, collection=name,
                                key=pipeline_key(job.chunking), originals=job.originals_dir,
                                work=Path(tmp) / str(i))  # fmt: skip
                reports.append(
                    run_ingest(job, self.open_store, self.embedder, progress, found=found)
                )
        if not collection:
            self._store().clear_reindex()
        return IngestReport(
            outcomes=tuple(o for r in reports for o in r.outcomes),
            seconds=sum(r.seconds for r in reports),
            chunks_embedded=sum(r.chunks_embedded for r in reports),
            pages=sum(r.pages for r in reports),
        )

    def _ingest_job(
        self, paths: Sequence[str | Path], collection: str, prune: bool, uploads: bool
    ) -> IngestJob:
        s = self.settings
        return IngestJob(
            paths=[Path(p).expanduser() for p in paths],
            collection=collection,
            prune=prune,
            max_file_bytes=s.max_file_bytes,
            max_inflated_bytes=s.max_inflated_bytes,
            ocr=s.ocr,
            chunking=ChunkingOptions(
                parent_chars=s.parent_chars,
                child_tokens=s.child_tokens,
                overlap=s.child_overlap,
                min_child_tokens=s.min_child_tokens,
                unembedded=unembedded_kinds(s.unembedded_blocks),
            ),
            originals_dir=s.originals_dir if s.keep_originals else None,
            streaming=StreamLimits(
                above_bytes=s.stream_text_above_bytes, max_bytes=s.max_text_file_bytes
            ),
            uploads=uploads,
        )

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
            return self.retriever().search(query, k=k, mode=mode, flt=flt)
        return search_collections(
            lambda f: self.retriever().search(query, k=k, mode=mode, flt=f), collections, flt, k
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
