"""`POST /api/query`: the Node pipeline's one-shot request and response (answer, sources,
relatedDocs, citations, confidence, metadata), and `GET /search` over the passages."""

from __future__ import annotations

from functools import partial
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from citewise.api.answer_slots import SlotsDep
from citewise.api.deps import AssistantDep, readable, readable_async, session_key
from citewise.api.schemas import Question, SearchResponse
from citewise.api.security import Reader
from citewise.assistant import Assistant
from citewise.types import Answer

router = APIRouter(tags=["query"])
LEVELS: dict[str, Literal["High", "Medium", "Low"]] = {
    "high": "High", "medium": "Medium", "low": "Low", "none": "Low",
}  # fmt: skip


class QueryRequest(BaseModel):
    query: Question
    collection: str | None = None


class QuerySource(BaseModel):
    title: str
    source: str
    page: int | None
    section: str
    score: float


class RelatedDoc(BaseModel):
    title: str
    source: str


class QueryCitation(BaseModel):
    n: int
    text: str  # "[Title > Section]" as the Node pipeline writes citations
    title: str
    source: str
    page: int | None
    section: str
    quote: str
    matched: bool
    docId: str
    score: float


class QueryConfidence(BaseModel):
    level: Literal["High", "Medium", "Low"]
    reason: str


class QueryMetadata(BaseModel):
    chunksRetrieved: int
    model: str | None
    intent: str
    grounded: bool
    timings_ms: dict[str, float]


class QueryResponse(BaseModel):
    answer: str
    sources: list[QuerySource]
    relatedDocs: list[RelatedDoc]
    citations: list[QueryCitation]
    confidence: QueryConfidence
    metadata: QueryMetadata


def node_response(answer: Answer, model: str) -> QueryResponse:
    titles = {h.source: h.title for h in answer.sources}
    scores = {h.chunk_id: h.score for h in answer.sources}
    cited: dict[str, QuerySource] = {}
    for c in answer.citations:
        cited.setdefault(c.source, QuerySource(
            title=titles.get(c.source, c.source), source=c.source, page=c.page,
            section=c.section, score=round(scores.get(c.chunk_id, 0.0), 6)))  # fmt: skip
    related = {h.source: RelatedDoc(title=h.title, source=h.source) for h in answer.sources}
    n_sources, n_cited = len(related), len(answer.citations)
    level = LEVELS[answer.confidence]
    reason = (
        f"{n_sources} relevant sources with {n_cited} citations"
        if n_cited
        else "the documents do not contain the answer"
    )
    return QueryResponse(
        answer=answer.answer,
        sources=list(cited.values()),
        relatedDocs=list(related.values()),
        citations=[
            QueryCitation(
                n=c.n,
                title=titles.get(c.source, c.source),
                source=c.source,
                page=c.page,
                section=c.section,
                quote=c.quote,
                matched=True,
                docId=c.source,
                text=f"[{titles.get(c.source, c.source)}"
                + (f" > {c.section}]" if c.section else "]"),
                score=round(scores.get(c.chunk_id, 0.0), 6),
            )
            for c in answer.citations
        ],
        confidence=QueryConfidence(level=level, reason=reason),
        metadata=QueryMetadata(
            chunksRetrieved=len(answer.sources),
            model=model if answer.sources else None,
            intent=answer.intent,
            grounded=answer.grounded,
            timings_ms={k: round(v, 2) for k, v in answer.timings_ms.items()},
        ),
    )


@router.post("/api/query", response_model=QueryResponse)
async def api_query(
    body: QueryRequest, principal: Reader, assistant: AssistantDep, slots: SlotsDep
) -> QueryResponse:
    """One question, no conversation: nothing is kept in memory afterwards."""
    import uuid

    key = session_key(principal, f"query-{uuid.uuid4().hex[:12]}")
    collections = await readable_async(principal, body.collection, assistant)
    with slots.admit() as ticket:
        answer = await ticket.run(partial(_ask_once, assistant, body.query, key, collections))
    return node_response(answer, assistant.llm_name)


def _ask_once(assistant: Assistant, query: str, key: str | None, collections: list[str]) -> Answer:
    try:
        return assistant.ask(query, session_id=key, collections=collections)
    finally:
        if key is not None:
            assistant.forget_session(key)


@router.get("/search", response_model=SearchResponse)
def search(
    q: str, principal: Reader, assistant: AssistantDep, k: int = 10,
    collection: str | None = None,
) -> SearchResponse:  # fmt: skip
    """`citewise search --json`: ranked passages, no answer."""
    result = assistant.search(
        q, k=min(max(k, 1), 50), collections=readable(principal, collection, assistant)
    )
    return SearchResponse.model_validate(result.to_json())
