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
from citewise.chat.history_summary import maybe_summarize, recent_context
from citewise.chat.intents.router import IntentRouter, RoutedIntent, reply_for
from citewise.chat.memory import Memory, Turn, TurnSource, validate_session_id
from citewise.chat.query_router import QueryRouter
from citewise.chat.rewrite import PriorTurn, elliptic, rewrite
from citewise.chat.tools import detect_tool, run_tool
from citewise.errors import CitewiseError, InputError, MemoryBackendError, NotFoundError
from citewise.llm import LLM
from citewise.question import analyse
from citewise.question.question import Prior, Question, Subject
from citewise.question.terms import carry_subject
from citewise.retrieve.query import validate_query
from citewise.types import Answer, Done, ErrorEvent, Event, SearchFilter, Status, Token

log = logging.getLogger("citewise.chat")
FOLLOW_UPS = {"followup", "simplify", "deepen", "clarify"}
STYLE_OF: dict[str, Style] = {"simplify": "simple", "deepen": "deep"}
RECENT_TURNS = 5


class Conversation:
    """One question in a conversation, over parts it is given (`services.build` wires them).
    `stream()` yields events and saves the turn once the answer is done."""

    def __init__(
        self,
        *,
        memory: Memory,
        llm: LLM | None,
        intents: IntentRouter,
        queries: QueryRouter,
        answerer: DocumentAnswerer,
        max_query_chars: int,
        summary_tokens: int,
    ) -> None:
        self.memory = memory
        self.llm = llm
        self.router = intents
        self.query_router = queries
        self.answerer = answerer
        self.max_query_chars = max_query_chars
        self.summary_tokens = summary_tokens

    def stream(
        self, question: str, *, session_id: str | None, collections: Sequence[str]
    ) -> Iterator[Event]:
        """Validation errors raise before anything is yielded; a failure later in the flow
        is yielded as an `ErrorEvent` and re-raised. `collections` are searched in order
        (the first is the one a summary or a command is about), each passage once."""
        started = time.perf_counter()
        text = validate_query(question, self.max_query_chars)
        sid = validate_session_id(session_id) if session_id else uuid.uuid4().hex[:12]
        searched = tuple(dict.fromkeys(collections))
        if not searched:
            raise NotFoundError("no collection to answer from")
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
        # the documents are read through the answer flow's one port (`PassageReader`)
        if not any(self.answerer.reader.has_documents(c) for c in collections):
            raise NotFoundError(
                f"no documents in collection '{collection}' yet: add some with"
                " `citewise ingest PATH`"
            )
        analysis = analyse(question)
        plan = self.query_router.plan(question, analysis=analysis)
        flt = SearchFilter(collection=collection)
        prior = [PriorTurn(t.question, t.answer, t.rewritten_query) for t in recent]
        rewritten = None
        query = question
        # a short question sharing a word with the last one leans on it: "What isn't covered?"
        leans = bool(prior) and elliptic(question, prior[-1].rewritten_query or prior[-1].question)
        if (intent in FOLLOW_UPS or leans) and prior:
            rw = rewrite(question, prior, summary=summary, llm=self.llm, intent=intent)
            if rw.changed:
                rewritten, query = rw.query, rw.query
                yield Status("rewrite", f"understood as: {rw.query}")
        # the question object travels to the answerer: analysed and embedded once (the
        # router's vector serves retrieval unless rewritten); a follow-up carries the last turn
        last = inherited(intent, bool(leans) or rewritten is not None, recent)
        if rewritten:
            asked = Question(query, prior=last)
            # the parts of a rewritten follow-up come from its standalone form
            parts = self.query_router.plan(query, analysis=asked.analysis).parts
        else:
            asked = Question(question, analysis=analysis, vector=routed.vector, prior=last)
            parts = plan.parts
        asked = asked.with_parts(carry_subject(list(parts)))
        req = AnswerRequest(
            question=query,
            flt=flt,
            intent=intent,
            kind=plan.kind,
            style=STYLE_OF.get(intent, "normal"),
            session_id=sid,
            rewritten_query=rewritten,
            already_said=recent[-1].answer if intent in STYLE_OF and recent else "",
            parts=asked.parts,
            collections=collections,
            question_object=asked,
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
            docs = self.answerer.reader.documents(collection)
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
            token_threshold=self.summary_tokens,
        )


def inherited(intent: str, leans: bool, recent: Sequence[Turn]) -> Prior | None:
    """What a question inherits from the last turn (`prior_of`): a follow-up's intent, or a
    question that leans on the last one (rewritten against it, elliptical) whatever its
    intent; None for a question that stands alone. A follow-up naming a document of its own
    searches that one instead (the retriever keeps carried documents for those naming none)."""
    if not recent or not (intent in FOLLOW_UPS or leans):
        return None
    return prior_of(recent[-1])


def prior_of(turn: Turn) -> Prior:
    """What a follow-up inherits from the previous turn: its subject and cited documents."""
    asked = turn.rewritten_query or turn.question
    return Prior(Subject.of(asked), tuple(dict.fromkeys(s.source for s in turn.sources)), asked)


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
