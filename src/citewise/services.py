"""The composition root: `build(settings)` is the one place that creates and wires the store
(chosen by URL), embedder, LLM, reranker, retrievers, memory, the conversation flow, the
user store, the ingester, the upload job queue and the answer slots. Every part is built on
first use, so a command that only searches never loads an LLM or opens the memory, and
`citewise --help` opens nothing."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Generic, TypeVar

from citewise.answer.flow import DocumentAnswerer
from citewise.answer.slots import LLM_THREADS_PER_CORE, THREADS_PER_CORE, AnswerSlots
from citewise.chat.conversation import Conversation
from citewise.chat.intents.probe import keyword_overlap
from citewise.chat.intents.router import IntentRouter
from citewise.chat.memory import Memory, create_memory
from citewise.chat.query_router import (
    QueryRouter,
    asks_across_documents,
    asks_beyond_named,
    asks_relationship,
)
from citewise.config import Settings
from citewise.embed import create_embedder
from citewise.embed.base import Embedder
from citewise.extractive.extractor import Extractor
from citewise.ingest.runner import Ingester
from citewise.jobs import IngestFiles, JobQueue, create_job_queue
from citewise.llm import LLM, create_llm
from citewise.retrieve.gate import RelevanceGate
from citewise.retrieve.passages import StorePassages
from citewise.retrieve.rerank import create_reranker
from citewise.retrieve.rerank.documents_first import DocumentsFirst
from citewise.retrieve.retriever import HybridRetriever, RetrievalOptions, default_sources
from citewise.retrieve.sources.graph import GraphSource
from citewise.rules import RulePack, retrieval_rules, rule_pack
from citewise.store.base import GraphHolder, Store
from citewise.store.registry import STORES, StoreFactory, StoreOpener
from citewise.store.registry import open_store as open_store_url
from citewise.text.urls import scheme

if TYPE_CHECKING:
    from citewise.auth.service import AuthService
    from citewise.auth.store import AuthStore

T = TypeVar("T")


class Lazy(Generic[T]):
    """A part built by its first `get()` (from any thread, once)."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._built = False
        self._value: T | None = None

    def get(self) -> T:
        with self._lock:
            if not self._built:
                self._value = self._build()
                self._built = True
            return self._value  # type: ignore[return-value]

    @property
    def built(self) -> bool:
        return self._built

    def reset(self, close: Callable[[T], object] | None = None) -> None:
        """Forgets the part (closing it with `close` if it was built): the next `get()`
        builds a new one."""
        with self._lock:
            value, built = self._value, self._built
            self._value, self._built = None, False
        if built and close is not None:
            close(value)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Components:
    """The wired parts of one process; `Assistant` is the facade over them."""

    settings: Settings
    store: Lazy[Store]
    open_store: StoreOpener
    embedder: Lazy[Embedder]
    llm: Lazy[LLM | None]
    memory: Lazy[Memory]
    rules: Lazy[RulePack]
    retriever: Lazy[HybridRetriever]  # `search`
    candidates: Lazy[HybridRetriever]  # the answer flow's candidates, reranked
    conversation: Lazy[Conversation]
    auth_store: Lazy[AuthStore]
    auth: Lazy[AuthService]
    ingester: Lazy[Ingester]
    jobs: Lazy[JobQueue]  # the upload jobs of a server
    answer_slots: Lazy[AnswerSlots]  # a server's bounded answer threads

    def close(self) -> None:
        """Closes what was opened (parts never used were never built); a part used again
        afterwards is opened anew."""
        self.jobs.reset(lambda queue: queue.close())  # its running job ends first
        for over_the_store in (self.conversation, self.retriever, self.candidates, self.auth):
            over_the_store.reset()
        self.memory.reset(lambda memory: memory.close())
        self.store.reset(lambda store: store.close())
        self.auth_store.reset(lambda users: users.close())


def register_store(scheme: str, factory: StoreFactory) -> None:
    """Adds a store backend for URLs `scheme://…`."""
    STORES[scheme] = factory


def is_postgres(url: str) -> bool:
    return scheme(url) in ("postgresql", "postgres")


def memory_url(settings: Settings) -> str:
    """`CITEWISE_MEMORY` when set to a server (Redis, another database); with the default
    (SQLite) and a PostgreSQL store, the store's database, so every process that shares the
    store shares the conversations."""
    if settings.memory.strip().lower() == "sqlite" and is_postgres(settings.store_url):
        return settings.store_url
    return settings.memory


def open_store(settings: Settings, *, pool_size: int | None = None) -> Store:
    """A store of its own over `settings.store_url` (the backend its scheme names)."""
    return open_store_url(settings.store_url, pool_size=pool_size or settings.store_pool_size)


def make_embedder(settings: Settings) -> Embedder:
    s = settings
    return create_embedder(
        s.embedder, base_url=s.embedder_base_url, api_key=s.embedder_api_key,
        cache_dir=s.model_cache, threads=s.threads or None,
    )  # fmt: skip


def make_llm(settings: Settings) -> LLM | None:
    """The configured LLM client; None answers extractively."""
    s = settings
    return create_llm(s.llm, base_url=s.llm_base_url, api_key=s.llm_api_key, timeout=s.llm_timeout)


def make_memory(settings: Settings) -> Memory:
    return create_memory(
        memory_url(settings), settings.data_dir, ttl_seconds=int(settings.session_ttl_hours * 3600)
    )


def make_retriever(
    settings: Settings,
    store: Store,
    embedder: Callable[[], Embedder],
    rules: RulePack,
    *,
    candidates: bool,
) -> HybridRetriever:
    """The hybrid retriever of `search`, or with `candidates` the answer flow's, which
    gathers deeper lists for the reranker (`pool_keyword_k`, `pool_vector_k`)."""
    s = settings
    options = RetrievalOptions(
        keyword_k=s.pool_keyword_k if candidates else s.keyword_k,
        vector_k=s.pool_vector_k if candidates else s.vector_k,
        rrf_k=s.rrf_k,
        keyword_weight=s.keyword_weight,
        vector_weight=s.vector_weight,
        max_query_chars=s.max_query_chars,
        max_per_document=s.max_per_document,
        release_notes_factor=s.release_notes_factor,
        entries=rules.option_items,
    )
    sources = default_sources(store, embedder, options)
    if isinstance(store, GraphHolder):  # relationship questions walk the graph too
        sources.append(GraphSource(store.graph_store(), route=asks_relationship))
    return HybridRetriever(
        store,
        embedder,
        options,
        sources,
        beyond_named=asks_beyond_named,
        rules=retrieval_rules(rules),
    )


def make_answerer(
    settings: Settings,
    store: Store,
    embedder: Callable[[], Embedder],
    llm: LLM | None,
    candidates: HybridRetriever,
    rules: RulePack,
) -> DocumentAnswerer:
    """The document answerer: retrieval of the candidates and their reranking (a list that
    spans documents shows each document's best passage before a second one), the relevance
    gate and the extractive answerer."""
    s = settings
    reranker = DocumentsFirst(
        create_reranker(
            s.reranker, embedder_factory=embedder, llm=llm, vector_lookup=store.get_vectors
        ),
        asks_across_documents,
    )
    reader = StorePassages(store, candidates, reranker)
    return DocumentAnswerer(
        reader,
        embedder,
        llm,
        gate=RelevanceGate(reader.vectors, code_names=rules.code_names),
        extractor=Extractor(embedder, s.abstain_threshold, rules),
        rules=rules,
        select_threshold=reranker.select_threshold,
        context_tokens=s.context_tokens,
        llm_context_tokens=s.llm_context_tokens,
        llm_budget_s=s.llm_answer_budget,
    )


def make_conversation(
    settings: Settings,
    store: Callable[[], Store],
    embedder: Callable[[], Embedder],
    llm: LLM | None,
    memory: Memory,
    answerer: DocumentAnswerer,
) -> Conversation:
    """The flow of one message: the intent and query routers before the document answerer."""
    return Conversation(
        memory=memory,
        llm=llm,
        # the off-topic probe reads the documents through the answer flow's port
        intents=IntentRouter(
            embedder, llm=llm, doc_overlap=keyword_overlap(lambda: answerer.reader)
        ),
        queries=QueryRouter(llm=llm),
        answerer=answerer,
        max_query_chars=settings.max_query_chars,
        summary_tokens=settings.summary_tokens,
    )


def make_user_store(settings: Settings) -> AuthStore:
    from citewise.auth.backends import open_auth_db
    from citewise.auth.store import AuthStore

    return AuthStore(open_auth_db(settings))


def make_auth(settings: Settings, users: AuthStore) -> AuthService:
    # password hashing loads slowly: only commands and servers that check users pay it
    from citewise.auth.service import AuthService

    return AuthService(settings, users)


def make_ingester(
    settings: Settings, store: Lazy[Store], open_store: StoreOpener, embedder: Lazy[Embedder]
) -> Ingester:
    return Ingester(settings, store.get, open_store, embedder.get)


def make_job_queue(settings: Settings, ingest: IngestFiles) -> JobQueue:
    """The backend `settings.jobs` names (`thread`: ingests here with `ingest`; `queue`:
    the `citewise worker` processes)."""
    return create_job_queue(settings.jobs, settings, ingest)


def make_answer_slots(settings: Settings) -> AnswerSlots:
    """The slots `settings` asks for (`serve_workers`, `serve_queue_depth`), else a few
    threads per core."""
    per_core = LLM_THREADS_PER_CORE if settings.llm else THREADS_PER_CORE
    threads = settings.serve_workers or (os.cpu_count() or 1) * per_core
    return AnswerSlots(threads, settings.serve_queue_depth)


def build(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    llm: LLM | None = None,
    memory: Memory | None = None,
) -> Components:
    """The parts `settings` names, each built on first use by the `make_*` function above;
    `embedder`, `llm` and `memory` replace theirs (tests, an LLM client of the caller's)."""
    s = settings
    store = Lazy(partial(open_store, s))
    embedder_part: Lazy[Embedder] = Lazy(
        partial(_given, embedder) if embedder is not None else partial(make_embedder, s)
    )
    llm_part: Lazy[LLM | None] = Lazy(
        partial(_given, llm) if llm is not None else partial(make_llm, s)
    )
    memory_part: Lazy[Memory] = Lazy(
        partial(_given, memory) if memory is not None else partial(make_memory, s)
    )
    rules = Lazy(partial(rule_pack, s.profile))
    search_retriever = Lazy(
        lambda: make_retriever(s, store.get(), embedder_part.get, rules.get(), candidates=False)
    )
    candidates = Lazy(
        lambda: make_retriever(s, store.get(), embedder_part.get, rules.get(), candidates=True)
    )
    conversation = Lazy(
        lambda: make_conversation(
            s, store.get, embedder_part.get, llm_part.get(), memory_part.get(),
            make_answerer(
                s, store.get(), embedder_part.get, llm_part.get(), candidates.get(), rules.get()
            ),
        )
    )  # fmt: skip
    auth_store = Lazy(partial(make_user_store, s))
    opener = partial(open_store, s)
    ingester = Lazy(partial(make_ingester, s, store, opener, embedder_part))
    return Components(
        settings=s,
        store=store,
        open_store=opener,
        embedder=embedder_part,
        llm=llm_part,
        memory=memory_part,
        rules=rules,
        retriever=search_retriever,
        candidates=candidates,
        conversation=conversation,
        auth_store=auth_store,
        auth=Lazy(lambda: make_auth(s, auth_store.get())),
        ingester=ingester,
        jobs=Lazy(lambda: make_job_queue(s, ingester.get().ingest)),
        answer_slots=Lazy(partial(make_answer_slots, s)),
    )


def _given(part: T) -> T:
    return part
