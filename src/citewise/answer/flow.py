"""One answer from the documents: retrieve → rerank → gate → assemble → generate → verify → cite.

Reads top to bottom like the diagram in DESIGN.md. Every step reports its time in
`timings_ms`; a fallback (a reranker or judge that failed) is visible there too.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Protocol

from citewise.answer.context import MIN_RELATIVE_SCORE, assemble, assemble_within_budget
from citewise.answer.document_summary import summarize_document
from citewise.answer.generate import DEFAULT_BUDGET_S, answer_with_fallback, record_generation
from citewise.answer.grounding import check_answer
from citewise.answer.policy import policy_for
from citewise.answer.prompts import NOTHING_MORE, styled_question
from citewise.answer.request import AnswerRequest
from citewise.answer.settle import closest_passage, make_answer, not_found, settle
from citewise.answer.support import document_aliases
from citewise.embed.base import Embedder
from citewise.extractive.definitions import pages_about, promote_definitions
from citewise.extractive.outcome import CLOSEST_PASSAGE
from citewise.llm.base import LLM
from citewise.question.analysis import Analysis
from citewise.question.question import Prior, Question
from citewise.retrieve.gate import RelevanceGate
from citewise.retrieve.inside_named import resolved
from citewise.retrieve.passages import PassageReader
from citewise.retrieve.rerank import select_passages
from citewise.rules import RulePack
from citewise.rules.openings import with_openings
from citewise.types import (
    NOT_FOUND,
    CitationEvent,
    Done,
    Event,
    Hit,
    Passage,
    SearchFilter,
    Sources,
    Status,
    Token,
)
from citewise.types.vectors import Vectors

TOKEN_COUNTS_KEPT = 2048  # passages' token counts kept across questions
# Passage tokens an LLM reads: room for the prompt and a 600-token answer in an 8k context.
LLM_CONTEXT_TOKENS = 3000


class Extracted(Protocol):
    """What the no-LLM generator gives: the answer text, or an abstention."""

    @property
    def text(self) -> str: ...

    @property
    def abstained(self) -> bool: ...

    @property
    def support(self) -> Sequence[float]:
        """The score of each sentence of the answer, in answer order."""
        ...


class Extracts(Protocol):
    """The no-LLM generator (`citewise.extractive.extractor.Extractor`): answers from the
    passages alone in the request's style, or abstains. With an LLM, it is the fallback."""

    def extract(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        question_vector: Vectors | None,
        analysis: Analysis | None,
        style: str,
        already_said: str,
        asked: Question | None = None,
        document_names: Sequence[str] = (),
    ) -> Extracted: ...


class DocumentAnswerer:
    """The answer flow over its injected parts: `reader` is its one port to the documents
    (search and rerank, the passages around a hit, openings, vectors, the graph); `gate` the
    relevance gate; `extractor` the no-LLM generator; `rules` the profile's rule pack
    (`services.make_answerer` wires them)."""

    def __init__(
        self,
        reader: PassageReader,
        embedder_factory: Callable[[], Embedder],
        llm: LLM | None,
        *,
        gate: RelevanceGate,
        extractor: Extracts,
        rules: RulePack,
        select_threshold: float = 0.0,
        context_tokens: int = 1800,
        llm_context_tokens: int = LLM_CONTEXT_TOKENS,
        llm_budget_s: float = DEFAULT_BUDGET_S,
    ) -> None:
        self.reader = reader
        self.embedder_factory = embedder_factory
        self.llm = llm
        self.select_threshold = select_threshold  # the reranker's (`Reranker.select_threshold`)
        self.context_tokens = context_tokens
        self.llm_context_tokens = llm_context_tokens
        self.llm_budget_s = llm_budget_s
        self.rules = rules
        self.gate = gate
        self.extractor = extractor
        # the passages of repeated and related questions recur: their token counts are kept
        self._count_tokens = functools.lru_cache(maxsize=TOKEN_COUNTS_KEPT)(self._tokens_in)

    def stream(self, req: AnswerRequest) -> Iterator[Event]:
        trace = req.trace
        asked = req.asked()
        analysis = asked.analysis
        yield Status("retrieve", f"searching the documents for: {req.question}")
        embedder = self.embedder_factory()
        if asked.carried_vector(req.question) is None:
            with trace.span("search_embed_query"):
                qv = asked.vector_of(req.question, embedder.embed_query)
        else:
            qv = asked.vector_of(req.question, embedder.embed_query)
        carried = self._carried(asked.prior, req.flt)
        embed = functools.partial(asked.vector_of, embed=embedder.embed_query)
        first = self.reader.ranked(
            req.question, req.flt, req.collections, trace, embed=embed, carried=carried
        )
        ranked, fell_back = first.hits, first.fallback
        if len(asked.parts) > 1:
            # each part of a multi-part question gets its own search, so one part's passages
            # do not crowd out the other's; the lists are interleaved, best first
            parts = [
                self.reader.ranked(
                    part, req.flt, req.collections, trace, carried=carried, embed=embed
                )
                for part in asked.parts
            ]  # fmt: skip
            ranked = interleave([ranked] + [r.hits for r in parts])
            fell_back = fell_back or next((r.fallback for r in parts if r.fallback), None)
        kind = req.kind
        subject = analysis.subject
        if subject and self.rules.entry_headings:
            # the opening passages of up to two pages about the subject
            about = pages_about(subject, self.reader.titled(req.flt.collection, subject[-1]))
            openings = [self.reader.document_chunks(d.doc_id)[:2] for d in about[:2]]
            ranked = promote_definitions(with_openings(ranked, openings), subject)
        if req.style == "deep" or (kind == "simple" and subject):
            kind = "complex"  # a definition is often a few passages away from the top hit
        # scores not comparable, or not what orders the list (one passage a document first)
        mixed = fell_back or len(asked.parts) > 1 or not first.by_score
        threshold = 0.0 if mixed else self.select_threshold
        selected = select_passages(ranked, policy_for(kind).passages, threshold)

        with trace.span("assemble"):
            passages = self._passages(selected, kind, by_score=first.by_score)
            # the LLM reads what retrieval ranked, as far as its token budget goes
            shown = passages if self.llm is None else self._passages(ranked, kind, llm=True)
        yield Sources(tuple(p.hit for p in shown))

        # the passages are read with the names that chose their documents in the documents'
        # own words: the clause says "Distributor", not the party's name
        named = self.reader.named(req.question, req.flt)
        read_as = resolved(req.question, named, every_name=False)
        if read_as != req.question:
            qv = asked.vector_of(read_as, embedder.embed_query)
            analysis = asked.analysis_of(read_as)
        with trace.span("gate") as span:
            gate = self.gate.decide(read_as, passages, qv, analysis=analysis)
            span.attributes.update(relevant=float(gate.relevant), score=gate.score)
        # without an LLM, a refusal on the score alone is the extractive outcome's to make:
        # its calibrated evidence reads the sentences, the gate only the retrieval scores
        if not gate.relevant and (gate.firm or self.llm is not None):
            yield from self._nothing_found(req, ranked)
            return

        started = time.perf_counter()
        fallback = None
        outcome_kind = None  # the extractive outcome kind (`passage`: the closest passage)
        label = CLOSEST_PASSAGE  # a passage's label (a blank or redacted value has its own)

        def extract() -> Extracted:
            return self.extractor.extract(
                read_as, shown, question_vector=qv, analysis=analysis,
                style=req.style, already_said=req.already_said, asked=asked,
                document_names=(*named.names, *(t for _, t in named.terms))
                if any(named.boost(p.hit.source) for p in shown) else (),
            )  # fmt: skip

        if self.llm is not None:
            # the LLM gets the top passages; its verified answer, else a marked fallback (the
            # extractive answer is computed only when the fallback needs it)
            yield Status("generate", f"writing the answer with {self.llm.name}")
            styled = styled_question(req.question, req.style)
            made = yield from answer_with_fallback(
                self.llm,
                styled,
                shown,
                lambda: extract().text,
                budget_s=self.llm_budget_s,
                aliases=self._aliases(shown, req),
            )
            record_generation(trace, made)
            text, report, fallback = made.text, made.report, made.fallback
            relevance: Sequence[float] = [gate.score]
            streamed = made.draft.cited_order if made.draft else ()
        else:
            extracted = extract()
            trace.add_since("relevance", started)
            if extracted.abstained:
                yield from self._nothing_found(req, ranked)
                return
            outcome_kind = getattr(extracted, "kind", None)
            label = getattr(extracted, "label", "") or CLOSEST_PASSAGE
            report = check_answer(extracted.text, passages)
            text = report.supported_text
            relevance = extracted.support
            streamed = ()
        trace.add_since("generate", started)
        settled = settle(text, shown, report.strengths, relevance, report.grounded, streamed)
        if outcome_kind == "passage" and settled.citations:
            settled = closest_passage(settled, label)
        if self.llm is None:  # written at once: streamed as settled, numbers and all
            yield Token(settled.text)
        for c in settled.citations:
            yield CitationEvent(c)
        answer = make_answer(req, settled, ranked, threshold, self.reader.graph)
        outcome = (
            "passage" if outcome_kind == "passage" and settled.citations else answer.answer_kind
        )
        yield Done(replace(answer, fallback=fallback, answer_kind=outcome))

    def summarize(self, req: AnswerRequest, target: str) -> Iterator[Event]:
        """The summary of the document `target` names (`document_summary.summarize_document`)."""
        return summarize_document(self.reader, self.llm, req, target)

    def _nothing_found(self, req: AnswerRequest, ranked: Sequence[Hit]) -> Iterator[Event]:
        req.trace.note("abstain")
        # after an answer, "tell me more" finding nothing new is not "not in the documents"
        more = req.style == "deep" and bool(req.already_said)
        nothing = not_found(NOTHING_MORE if more else NOT_FOUND)
        yield Token(nothing.text)
        yield Done(make_answer(req, nothing, ranked))

    def _carried(self, prior: Prior | None, flt: SearchFilter) -> tuple[str, ...]:
        """The documents a follow-up inherits: those the last answer cited, else those the
        last question's subject named."""
        if prior is None or prior.sources or not prior.question:
            return prior.sources if prior is not None else ()
        named = self.reader.named(prior.question, flt)
        return named.unambiguous or tuple(m.source for m in named.matches[:1])

    def _aliases(self, shown: Sequence[Passage], req: AnswerRequest) -> dict[str, tuple[str, ...]]:
        """The shown documents' own words for the names in them (`DocumentFields.aliases`):
        the check holds a party the answer names to the role its passage gives it."""
        ids = {p.hit.doc_id for p in shown}
        collections = dict.fromkeys(req.collections or (req.flt.collection,))
        docs = [d for c in collections for d in self.reader.documents(c) if d.doc_id in ids]
        return document_aliases(d.fields for d in docs)

    def _tokens_in(self, text: str) -> int:
        return self.embedder_factory().count_tokens(text)

    def _passages(
        self, hits: Sequence[Hit], kind: str, *, llm: bool = False, by_score: bool = True
    ) -> list[Passage]:
        """The numbered passages of `hits`: the kind's count within `context_tokens`, or for
        the LLM every hit within `llm_context_tokens` (`context.assemble_within_budget`);
        `by_score`: False when the order is not the scores' (no cut relative to the top)."""
        ids = [h.chunk_id for h in hits]
        records = self.reader.chunks(ids)
        parents = {r.parent_id: r.parent_text for r in records}
        counter = self._count_tokens
        preceding = self.reader.preceding(ids)
        before_parents = self.reader.before_parents(list(parents))
        following = self.reader.following(ids)
        after_parents = self.reader.after_parents(list(parents))
        if llm:
            return assemble_within_budget(hits, parents, self.llm_context_tokens, counter, kind,
                                          preceding, before_parents, following=following,
                                          after_parents=after_parents)  # fmt: skip
        return assemble(hits, parents, self.context_tokens, counter, kind, preceding,
                        before_parents, following=following, after_parents=after_parents,
                        min_relative=MIN_RELATIVE_SCORE if by_score else 0.0)  # fmt: skip


def interleave(lists: Sequence[Sequence[Hit]]) -> list[Hit]:
    """Round-robin merge of ranked lists without duplicates, re-ranked 1..n (pure)."""
    out: list[Hit] = []
    seen: set[int] = set()
    for i in range(max((len(x) for x in lists), default=0)):
        for ranked in lists:
            if i < len(ranked) and ranked[i].chunk_id not in seen:
                seen.add(ranked[i].chunk_id)
                out.append(replace(ranked[i], rank=len(out) + 1))
    return out


def stream_summary(answerer: DocumentAnswerer, req: AnswerRequest, target: str) -> Iterator[Event]:
    """The summary path of a conversation (`DocumentAnswerer.summarize`)."""
    return answerer.summarize(req, target)
