"""The orchestrator: one question in a conversation, top to bottom as in DESIGN.md.

validate → intent router ─┬─ chit-chat → short reply, no retrieval
                          ├─ command → action ("clear history", "list documents", "help")
                          ├─ tool (calculator, date/time) → tool output, no citations
                          └─ question / follow-up → query router → rewrite with recent turns
                             → retrieve → rerank → assemble → generate → verify → cite
→ stream events → save the turn to memory (→ summarize older turns when history is long)
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import replace

from citewise.answer.flow import DocumentAnswerer, stream_summary
from citewise.answer.request import AnswerRequest, Style
from citewise.assistant import Assistant
from citewise.chat.history_summary import maybe_summarize, recent_context
from citewise.chat.intents.router import IntentRouter, RoutedIntent, reply_for
from citewise.chat.memory import Memory, Turn, TurnSource, create_memory, validate_session_id
from citewise.chat.query_router import QueryRouter
from citewise.chat.rewrite import PriorTurn, rewrite
from citewise.chat.tools import detect_tool, run_tool
from citewise.errors import CitewiseError, InputError, MemoryBackendError, NotFoundError
from citewise.extractive.rules import rule_pack
from citewise.llm import LLM, create_llm
from citewise.question.terms import carry_subject
from citewise.retrieve.query import validate_query
from citewise.retrieve.rerank import create_reranker
from citewise.types import Answer, Done, ErrorEvent, Event, SearchFilter, Status, Token

log = logging.getLogger("citewise.chat")
FOLLOW_UPS = {"followup", "simplify", "deepen", "clarify"}
STYLE_OF: dict[str, Style] = {"simplify": "simple", "deepen": "deep"}
RECENT_TURNS = 5


class ChatAssistant:
    """Conversations over an `Assistant`'s documents. `stream()` yields events; `ask()` runs
    the same flow and returns the final `Answer`."""

    def __init__(
        self, assistant: Assistant, *, llm: LLM | None = None, memory: Memory | None = None
    ) -> None:
        s = assistant.settings
        self.assistant = assistant
        self.llm = llm if llm is not None else create_llm(
            s.llm, base_url=s.llm_base_url, api_key=s.llm_api_key, timeout=s.llm_timeout
        )  # fmt: skip
        self.memory = memory or create_memory(
            s.memory, s.data_dir, ttl_seconds=int(s.session_ttl_hours * 3600)
        )
        self.router = IntentRouter(assistant.embedder, llm=self.llm)
        self.query_router = QueryRouter(llm=self.llm)
        reranker = create_reranker(
            s.reranker,
            embedder_factory=assistant.embedder,
            llm=self.llm,
            vector_lookup=assistant.store.get_vectors,
        )
        self.answerer = DocumentAnswerer(
            assistant.store,
            assistant.embedder,
            assistant.retriever(pool=True),
            reranker,
            self.llm,
            context_tokens=s.context_tokens,
            abstain_threshold=s.abstain_threshold,
            llm_budget_s=s.llm_answer_budget,
            rules=rule_pack(s.profile),
        )

    def close(self) -> None:
        self.memory.close()

    def ask(
        self,
        question: str,
        *,
        session_id: str | None = None,
        collection: str | None = None,
        also: Sequence[str] = (),
    ) -> Answer:
        answer: Answer | None = None
        for event in self.stream(question, session_id=session_id, collection=collection, also=also):
            if isinstance(event, Done):
                answer = event.answer
        assert answer is not None
        return answer

    def stream(
        self,
        question: str,
        *,
        session_id: str | None = None,
        collection: str | None = None,
        also: Sequence[str] = (),
    ) -> Iterator[Event]:
        """Validation errors raise before anything is yielded; a failure later in the flow
        is yielded as an `ErrorEvent` and re-raised. `collection` (default: the assistant's)
        is searched first, then the collections in `also`, merged with each passage once."""
        started = time.perf_counter()
        s = self.assistant.settings
        text = validate_query(question, s.max_query_chars)
        sid = validate_session_id(session_id) if session_id else uuid.uuid4().hex[:12]
        primary = collection or self.assistant.collection
        searched = tuple(dict.fromkeys((primary, *also)))
        return self._flow(text, sid, started, searched)

    def _flow(
        self, question: str, sid: str, started: float, collections: tuple[str, ...]
    ) -> Iterator[Event]:
        try:
            summary, recent = recent_context(self.memory, sid, last=RECENT_TURNS)
            routed = self.router.route(question, has_history=bool(recent))
            final: Answer | None = None
            for event in self._route(question, sid, routed, summary, recent, collections):
                if isinstance(event, Done):
                    final = _finish(event.answer, started)
                    yield Done(final)
                else:
                    yield event
            if final is not None:
                try:
                    self._remember(question, final)
                except MemoryBackendError as exc:  # the answer stands; only its turn is lost
                    log.warning("conversation %s: turn not saved: %s", sid, exc)
                    yield Status("memory", f"this answer was not saved to the conversation: {exc}")
        except CitewiseError as exc:
            yield ErrorEvent(str(exc), type(exc).__name__)
            raise

    def _route(
        self,
        question: str,
        sid: str,
        routed: RoutedIntent,
        summary: str | None,
        recent: list[Turn],
        collections: tuple[str, ...],
    ) -> Iterator[Event]:
        collection = collections[0]
        intent = routed.intent
        if routed.tool is not None and (call := detect_tool(question)) is not None:
            try:
                output = (
                    f"{run_tool(call).output} (tool output: {call.name}, not from the documents)"
                )
            except InputError as exc:
                output = f"The {call.name} tool could not do that: {exc}"
            yield from _reply(output, "tool", sid)
            return
        if intent == "command":
            yield from _reply(self._command(routed.command, sid, collection), "command", sid)
            return
        if intent in ("greeting", "gratitude", "garbage", "off_topic"):
            yield from _reply(reply_for(intent), intent, sid)
            return
        if not any(self.assistant.store.has_documents(c) for c in collections):
            raise NotFoundError(
                f"no documents in collection '{collection}' yet: add some with"
                " `citewise ingest PATH`"
            )
        plan = self.query_router.plan(question)
        flt = SearchFilter(collection=collection)
        prior = [PriorTurn(t.question, t.answer, t.rewritten_query) for t in recent]
        rewritten = None
        query = question
        if intent in FOLLOW_UPS and prior:
            rw = rewrite(question, prior, summary=summary, llm=self.llm, intent=intent)
            if rw.changed:
                rewritten, query = rw.query, rw.query
                yield Status("rewrite", f"understood as: {rw.query}")
        # the parts of a rewritten follow-up come from its standalone form
        parts = self.query_router.plan(query).parts if rewritten else plan.parts
        req = AnswerRequest(
            question=query,
            flt=flt,
            intent=intent,
            kind=plan.kind,
            style=STYLE_OF.get(intent, "normal"),
            session_id=sid,
            rewritten_query=rewritten,
            already_said=recent[-1].answer if intent in STYLE_OF and recent else "",
            parts=tuple(carry_subject(list(parts))),
            collections=collections,
        )
        if plan.kind == "summarize":
            yield from stream_summary(self.answerer, req, plan.target or question)
        else:
            yield from self.answerer.stream(req)

    def _command(self, command: str | None, sid: str, collection: str) -> str:
        if command == "clear_history":
            if self.memory.exists(sid):
                self.memory.clear(sid)
            return "Done: this conversation's history is cleared."
        if command == "list_documents":
            docs = self.assistant.documents(collection=collection)
            if not docs:
                return "No documents are ingested yet. Add some with `citewise ingest PATH`."
            names = ", ".join(d.source for d in docs[:20])
            more = f" and {len(docs) - 20} more" if len(docs) > 20 else ""
            return f"{len(docs)} documents: {names}{more}."
        return reply_for("help")

    def _remember(self, question: str, answer: Answer) -> None:
        sources = tuple(
            TurnSource(c.source, c.page, c.section, c.chunk_id, c.quote, c.doc_hash, c.boxes)
            for c in answer.citations
        )
        self.memory.append(
            Turn(
                session_id=answer.session_id,
                question=question,
                answer=answer.answer,
                intent=answer.intent,
                rewritten_query=answer.rewritten_query,
                sources=sources,
            )
        )
        maybe_summarize(
            self.memory,
            answer.session_id,
            self.llm,
            token_threshold=self.assistant.settings.summary_tokens,
        )


def _reply(text: str, intent: str, sid: str) -> Iterator[Event]:
    yield Token(text)
    yield Done(
        Answer(
            answer=text,
            intent=intent,
            citations=(),
            sources=(),
            grounded=False,
            confidence="none",
            session_id=sid,
            timings_ms={},
        )
    )


def _finish(answer: Answer, started: float) -> Answer:
    timings = dict(answer.timings_ms)
    timings["total"] = (time.perf_counter() - started) * 1000.0
    return replace(answer, timings_ms=timings)
