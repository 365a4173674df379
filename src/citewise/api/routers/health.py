"""Liveness and what the process runs on; conversation sessions of the caller."""

from __future__ import annotations

from fastapi import APIRouter

from citewise import __version__
from citewise.api.deps import AssistantDep, JobsDep, public_session, session_key
from citewise.api.schemas import HealthResponse, SessionModel
from citewise.api.security import Reader

router = APIRouter(tags=["service"])


@router.get("/health", response_model=HealthResponse)
def health(assistant: AssistantDep, jobs: JobsDep) -> HealthResponse:
    h = assistant.health()
    return HealthResponse(
        status="ok", version=__version__, store=h.store, llm=h.llm, embedder=h.embedder,
        jobs=jobs.name, schema_version=h.schema_version, reindex=h.reindex,
    )  # fmt: skip


@router.get("/sessions", response_model=list[SessionModel])
def sessions(principal: Reader, assistant: AssistantDep) -> list[SessionModel]:
    """The caller's live conversations, most recent first."""
    prefix = session_key(principal, "")
    return [
        SessionModel(
            session_id=public_session(principal, i.session_id),
            turns=i.turns,
            created_at=i.created_at,
            updated_at=i.updated_at,
            expires_at=i.expires_at,
        )
        for i in assistant.sessions()
        if principal.via == "local" or (prefix and i.session_id.startswith(prefix))
    ]
