"""What the MCP tools return: pydantic models, so clients get both a JSON text block and
structured content with a schema."""

from __future__ import annotations

from typing import Literal
from urllib.parse import quote

from pydantic import BaseModel

from citewise.types import Answer, Citation, DocumentInfo, Hit
from citewise.types.search import ChunkRecord


class SearchHit(BaseModel):
    rank: int
    chunk_id: int
    source: str
    title: str
    page: int | None
    section: str
    score: float
    text: str

    @classmethod
    def of(cls, hit: Hit) -> SearchHit:
        return cls(
            rank=hit.rank, chunk_id=hit.chunk_id, source=hit.source, title=hit.title,
            page=hit.page, section=hit.section, score=round(hit.score, 6), text=hit.text,
        )  # fmt: skip


class SearchResults(BaseModel):
    query: str
    collections: list[str]
    hits: list[SearchHit]


class CitedPassage(BaseModel):
    """One citation: the `[n]` marker in the answer, and where its quote is."""

    n: int
    chunk_id: int
    source: str
    page: int | None
    section: str
    quote: str

    @classmethod
    def of(cls, c: Citation) -> CitedPassage:
        return cls(
            n=c.n, chunk_id=c.chunk_id, source=c.source, page=c.page, section=c.section,
            quote=c.quote,
        )  # fmt: skip


class CitedAnswer(BaseModel):
    answer: str
    # how the answer was made: an answer from the passages, or a refusal when they hold none
    intent: str
    grounded: bool
    confidence: Literal["high", "medium", "low", "none"]
    citations: list[CitedPassage]
    session: str | None

    @classmethod
    def of(cls, answer: Answer, session: str | None) -> CitedAnswer:
        return cls(
            answer=answer.answer,
            intent=answer.intent,
            grounded=answer.grounded,
            confidence=answer.confidence,
            citations=[CitedPassage.of(c) for c in answer.citations],
            session=session,
        )


class Document(BaseModel):
    collection: str
    source: str
    title: str
    format: str
    pages: int | None
    passages: int
    uri: str

    @classmethod
    def of(cls, doc: DocumentInfo) -> Document:
        return cls(
            collection=doc.collection, source=doc.source, title=doc.title, format=doc.format,
            pages=doc.page_count, passages=doc.chunk_count, uri=document_uri(doc.source),
        )  # fmt: skip


class DocumentList(BaseModel):
    documents: list[Document]


class Passage(BaseModel):
    chunk_id: int
    source: str
    title: str
    page: int | None
    page_end: int | None
    section: str
    text: str

    @classmethod
    def of(cls, rec: ChunkRecord) -> Passage:
        return cls(
            chunk_id=rec.chunk_id, source=rec.source, title=rec.title, page=rec.page_start,
            page_end=rec.page_end, section=rec.section, text=rec.text,
        )  # fmt: skip


def document_uri(source: str) -> str:
    return f"citewise://documents/{quote(source, safe='/')}"
