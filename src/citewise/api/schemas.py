"""Response and request models of the HTTP API: the JSON contracts of `citewise ask --json`,
`search --json` and `docs ls --json` (README), the Axiom chat routes and the Node pipeline's
`/api/query`, as pydantic models so OpenAPI documents them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field
from pydantic_core import PydanticCustomError

from citewise.auth.models import ApiKeyInfo
from citewise.types import Answer, Citation, DocumentInfo, Hit


class HitModel(BaseModel):
    rank: int
    source: str
    page: int | None
    section: str
    chunk_id: int
    score: float
    text: str

    @classmethod
    def of(cls, hit: Hit) -> HitModel:
        return cls.model_validate(hit.to_json())


class CitationModel(BaseModel):
    n: int
    source: str
    page: int | None
    section: str
    chunk_id: int
    quote: str
    doc_hash: str | None = None  # opens the kept original (web UI)
    boxes: list[dict[str, Any]] = []  # the quote's line rectangles on PDF pages

    @classmethod
    def of(cls, citation: Citation) -> CitationModel:
        return cls.model_validate(citation.to_json())


class FallbackModel(BaseModel):
    """Why an answer is not the LLM's own (`types.Fallback`)."""

    used: Literal["extractive", "passages"]
    reason: str


class AnswerModel(BaseModel):
    """`citewise ask --json`."""

    answer: str
    intent: str
    citations: list[CitationModel]
    sources: list[HitModel]
    grounded: bool
    confidence: Literal["high", "medium", "low", "none"]
    answer_kind: Literal["answer", "passage", "none"] = "answer"
    session_id: str
    timings_ms: dict[str, float]
    rewritten_query: str | None = None
    related_docs: list[str] = []
    fallback: FallbackModel | None = None  # null: the LLM's own verified answer (or none used)

    @classmethod
    def of(cls, answer: Answer, session_id: str) -> AnswerModel:
        data = answer.to_json()
        data["session_id"] = session_id
        return cls.model_validate(data)


def not_blank(text: str) -> str:
    """An empty and a blank message are the same mistake, with the same status (422)."""
    if not text.strip():
        raise PydanticCustomError("blank", "is empty: type a question or some keywords")
    return text


Question = Annotated[str, AfterValidator(not_blank)]


class ChatRequest(BaseModel):
    message: Question = Field(description="The question or chat message.")
    session_id: str | None = Field(
        default=None,
        description="Continues a conversation; an unknown or expired id is a 404 unless "
        "`create_session` is set. Leave it out to start a conversation under a new id.",
    )
    create_session: bool = Field(
        default=False, description="Start a conversation under `session_id` if none is live."
    )
    collection: str | None = Field(default=None, description="Defaults to the caller's own.")


class SearchResponse(BaseModel):
    query: str
    hits: list[HitModel]
    timings_ms: dict[str, float]


class DocumentModel(BaseModel):
    """`citewise docs ls --json`, one document."""

    source: str
    title: str
    format: str
    category: str
    tags: list[str]
    pages: int | None
    chunks: int
    status: str
    content_hash: str
    ingested_at: float
    size: int

    @classmethod
    def of(cls, doc: DocumentInfo) -> DocumentModel:
        return cls.model_validate({**doc.to_json(), "size": doc.size})


class DocumentList(BaseModel):
    collection: str
    documents: list[DocumentModel]


class HistoryResponse(BaseModel):
    session_id: str
    turns: list[dict[str, Any]]  # each as the memory keeps it (`Turn.to_json`)


class SessionModel(BaseModel):
    session_id: str
    turns: int
    created_at: float
    updated_at: float
    expires_at: float | None


class HealthResponse(BaseModel):
    status: Literal["ok"]
    version: str
    store: str
    llm: str
    embedder: str
    jobs: str
    schema_version: int
    # why the store waits for `citewise reindex` (docs/upgrades.md); None: it does not
    reindex: str | None = None


class ErrorResponse(BaseModel):
    error: str
    type: str


class KeyOut(BaseModel):
    key_id: str
    name: str
    scopes: list[str]
    created_at: float
    expires_at: float | None
    revoked: bool

    @classmethod
    def of(cls, info: ApiKeyInfo) -> KeyOut:
        return cls(
            key_id=info.key_id, name=info.name, scopes=sorted(info.scopes),
            created_at=info.created_at, expires_at=info.expires_at, revoked=info.revoked,
        )  # fmt: skip


class NewKeyOut(KeyOut):
    key: str = Field(description="shown once: only its SHA-256 is kept")
