"""The finished text with its citations and verdicts (`settle`), and the `Answer` made of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from citewise.answer.citations import build_citations, related_docs, renumber
from citewise.answer.confidence import confidence
from citewise.answer.prompts import NO_ANSWER_REPLIES
from citewise.answer.request import AnswerRequest
from citewise.extractive.outcome import CLOSEST_PASSAGE
from citewise.graph.store import GraphStore
from citewise.types import NOT_FOUND, Answer, Citation, Confidence, Hit, Passage


@dataclass(frozen=True, slots=True)
class Settled:
    """The finished text with its citations and verdicts, before it becomes an `Answer`."""

    text: str
    citations: tuple[Citation, ...]
    grounded: bool
    confidence: Confidence


def make_answer(
    req: AnswerRequest,
    s: Settled,
    hits: Sequence[Hit],
    related_floor: float = 0.0,
    graph: GraphStore | None = None,
) -> Answer:
    """The `Answer` for a settled text; its sources are the first ten hits, its related
    documents those the graph links to the first cited one (without a graph: those of hits
    scoring at least `related_floor` × the top one)."""
    sources = tuple(hits[:10])
    related = related_docs(sources, s.citations, related_floor, graph, req.flt.collection)
    return Answer(
        answer=s.text,
        intent=req.intent,
        citations=s.citations,
        sources=sources,
        grounded=s.grounded and bool(s.citations),  # nothing cited: nothing grounded
        confidence=s.confidence,
        session_id=req.session_id,
        timings_ms=req.trace.timings_ms(),
        rewritten_query=req.rewritten_query,
        related_docs=related if s.citations else (),
        answer_kind="answer" if s.citations else "none",
    )


def settle(
    text: str,
    passages: Sequence[Passage],
    support: Sequence[float],
    relevance: Sequence[float],
    grounded: bool,
    first: Sequence[int] = (),
) -> Settled:
    """Citations for the verified text, renumbered 1..N (`first`: the passage numbers in the
    order a streamed draft cited them, so the final numbers are the ones streamed; then in
    order of use), and its confidence. An answer left with no cited claim is no answer: it
    becomes the not-found reply (or stays the no-answer reply it already is, e.g. "could not
    verify")."""
    citations = build_citations(text, passages)
    if not text.strip() or not citations:
        return not_found(text.strip() if text.strip() in NO_ANSWER_REPLIES else NOT_FOUND)
    text, citations = renumber(text, citations, first)
    level = confidence(support, relevance, grounded)
    return Settled(text, citations, grounded, level)


def closest_passage(s: Settled, label: str = CLOSEST_PASSAGE) -> Settled:
    """The closest passage, labelled as such (or as a blank or redacted value): it does not
    state the answer, so it is not a grounded answer, whatever its sentences' support."""
    return replace(s, text=f"{label} {s.text}", grounded=False, confidence="low")


def not_found(text: str = NOT_FOUND) -> Settled:
    return Settled(text, (), False, "none")
