"""`create_app(settings)`: the FastAPI application. Every router is included here; routers
stay thin and call the one `Assistant`; the error tree maps to HTTP statuses here, in one
place."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from prometheus_client import make_asgi_app
from starlette.routing import Route

from citewise import __version__
from citewise.api.headers import SecurityHeaders, content_security_policy, security_headers
from citewise.api.observability import RequestContext, record_answer, tracer_provider
from citewise.api.routers import (
    admin,
    auth,
    backup,
    chat,
    collections,
    docs,
    documents,
    graph,
    health,
    jobs,
    openai,
    query,
    ui,
    web_pages,
)
from citewise.api.validation import explain
from citewise.assistant import Assistant
from citewise.config import Settings
from citewise.errors import CitewiseError, RateLimitedError
from citewise.llm import LLM
from citewise.mcp.http import PATH as MCP_PATH
from citewise.mcp.http import McpEndpoint

log = logging.getLogger(__name__)

ROUTERS = (auth, admin, backup, collections, health, chat, query, web_pages, documents, graph,
           jobs, openai, ui, docs)  # fmt: skip


def create_app(
    settings: Settings, *, assistant: Assistant | None = None, llm: LLM | None = None
) -> FastAPI:
    """The API over `settings` (`settings.host` is where `serve` binds: auth is required
    unless it is a loopback address). `assistant`/`llm` may be injected by tests; an
    injected assistant stays open when the app ends (its owner closes it)."""
    provider = tracer_provider(settings)
    telemetry: dict[str, Any] = (
        {"tracer_provider": provider}
        if provider is not None
        else {"tracing": False, "metrics": False, "logs": False, "operation_spans": False}
    )

    owned = assistant is None
    served = assistant or Assistant(settings=settings, llm=llm)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        served.on_answer = record_answer
        app.state.jobs = served.job_queue()
        await anyio.to_thread.run_sync(served.warm_up)
        try:
            async with mcp.running():
                yield
        finally:
            if owned:  # the job queue closes with it
                served.close()
            if provider is not None:
                provider.shutdown()

    app = FastAPI(
        title="citewise",
        version=__version__,
        summary="Answers only from your documents, with citations.",
        lifespan=lifespan,
        docs_url=None,  # /docs and /redoc from the vendored bundles (routers.docs)
        redoc_url=None,
        telemetry=telemetry,  # type: ignore[arg-type]
    )
    app.state.settings = settings
    app.state.assistant = served
    app.state.auth = served.auth
    app.state.answer_slots = served.answer_slots()
    app.add_middleware(RequestContext)
    policy = content_security_policy(ui.WEB / "index.html")
    app.add_middleware(SecurityHeaders, headers=security_headers(policy))  # outermost: all
    app.add_exception_handler(CitewiseError, _citewise_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    mcp = McpEndpoint(served, served.auth, settings.host)  # MCP over Streamable HTTP
    app.router.routes.append(Route(MCP_PATH, mcp, include_in_schema=False))
    for module in ROUTERS:
        app.include_router(module.router)
    app.mount("/metrics", make_asgi_app())
    return app


def _error_body(request: Request, message: str, kind: str, status: int) -> dict[str, Any]:
    if request.url.path.startswith("/v1/"):  # the OpenAI error shape its clients read
        return {"error": {"message": message, "type": kind, "code": status}}
    return {"error": message, "type": kind}


async def _citewise_error(request: Request, exc: CitewiseError) -> JSONResponse:
    status = exc.http_status
    if status >= 500:
        log.error("%s: %s", type(exc).__name__, exc)
    headers: dict[str, str] = {}
    if isinstance(exc, RateLimitedError):
        headers["Retry-After"] = str(exc.retry_after)
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse(
        _error_body(request, str(exc), type(exc).__name__, status), status, headers=headers
    )


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    status, message, kind, details = explain(request, exc)
    body = _error_body(request, message, kind, status)
    body["detail"] = details
    return JSONResponse(body, status)
