"""The summarize path: find the document, read its chunks in page order, summarise with
citations (map-reduce with an LLM, key sentences per section without one)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from citewise.answer.context import render_context
from citewise.answer.grounding import check_answer
from citewise.answer.prompts import map_prompt, reduce_prompt
from citewise.answer.request import AnswerRequest
from citewise.answer.settle import Settled, make_answer, settle
from citewise.extractive.key_sentences import summarize_extractive
from citewise.llm.base import LLM, Message
from citewise.retrieve.documents import match_document
from citewise.retrieve.passages import PassageReader
from citewise.types import CitationEvent, Done, Event, Hit, Passage, Sources, Status, Token

MAX_SUMMARY_CHUNKS = 60  # a longer document is summarised from evenly spaced chunks
NO_DOCUMENT = "I could not find a document matching that description in this collection."


def summarize_document(
    reader: PassageReader, llm: LLM | None, req: AnswerRequest, target: str
) -> Iterator[Event]:
    """The summary of the document `target` names (by its name, else the best search hit):
    map-reduce with `llm`, key sentences per section without one."""
    trace = req.trace
    with trace.span("find_document"):
        docs = reader.documents(req.flt.collection)
        doc = match_document(target, docs) if target else None
        named = doc is not None
        if doc is None and target:
            found = reader.search(target, 5, req.flt)
            if found.hits:
                by_id = {d.doc_id: d for d in docs}
                doc = by_id.get(found.hits[0].doc_id)
    if doc is None:
        yield Token(NO_DOCUMENT)
        yield Done(make_answer(req, Settled(NO_DOCUMENT, (), False, "none"), ()))
        return
    yield Status("summarize", f"summarizing {doc.source}")
    records = reader.document_chunks(doc.doc_id)
    if len(records) > MAX_SUMMARY_CHUNKS:
        step = len(records) / MAX_SUMMARY_CHUNKS
        records = [records[int(i * step)] for i in range(MAX_SUMMARY_CHUNKS)]
    hits = [Hit.of(r, i + 1, 1.0) for i, r in enumerate(records)]
    passages = [Passage(h.rank, h, h.text) for h in hits]
    yield Sources(tuple(hits[:10]))
    with trace.span("summarize"):
        if llm is not None:
            text = summarize_with_llm(llm, doc.title or doc.source, passages)
        else:
            text = summarize_extractive(passages)
    report = check_answer(text, passages)
    strengths = report.strengths
    # a document named outright is surely the one meant; one found by search less so
    relevance = [1.0, 1.0] if named else [0.6]
    settled = settle(report.supported_text, passages, strengths, relevance, report.grounded)
    yield Token(settled.text)  # as settled: the numbers the citations carry
    for c in settled.citations:
        yield CitationEvent(c)
    yield Done(make_answer(req, settled, hits))


MAP_BATCH = 4  # passages summarised per map call: fewer calls, each still small


def summarize_with_llm(llm: LLM, title: str, passages: Sequence[Passage]) -> str:
    """Map-reduce: summarise groups of numbered passages, then combine the partial summaries.
    The `[n]` markers the model writes refer to the passages' numbers."""
    partials: list[str] = []
    for start in range(0, len(passages), MAP_BATCH):
        group = passages[start : start + MAP_BATCH]
        reply = llm.complete([Message("user", map_prompt(render_context(group)))])
        partials.append(reply.text.strip())
    if len(partials) == 1:
        return partials[0]
    return llm.complete([Message("user", reduce_prompt(title, partials))]).text.strip()
