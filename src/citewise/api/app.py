"""`create_app(settings)`: the FastAPI application. Routers stay thin; `Services` does the
work; the error tree maps to HTTP statuses here, in one place."""

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

from citewise import __version__
from citewise.api.observability import RequestContext, record_answer, tracer_provider
from citewise.api.routers import chat, documents, health, jobs, openai, query, ui
from citewise.api.security import install_auth
from citewise.config import Settings
from citewise.errors import CitewiseError, RateLimitedError
from citewise.llm import LLM
from citewise.services import Services

log = logging.getLogger(__name__)

ROUTERS = (health, chat, query, documents, jobs, openai, ui)


def create_app(
    settings: Settings, *, services: Services | None = None, llm: LLM | None = None
) -> FastAPI:
    """The API over `settings` (`settings.host` is where `serve` binds: auth is required
    unless it is a loopback address). `services`/`llm` may be injected by tests."""
    provider = tracer_provider(settings)
    telemetry: dict[str, Any] = (
        {"tracer_provider": provider}
        if provider is not None
        else {"tracing": False, "metrics": False, "logs": False, "operation_spans": False}
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from citewise.jobs import create_job_queue

        owned = services is None
        svc = services or Services(settings, llm=llm)
        svc.on_answer = record_answer
        app.state.services = svc
        app.state.jobs = create_job_queue(settings.jobs, svc)
        await anyio.to_thread.run_sync(svc.warm_up)
        try:
            yield
        finally:
            app.state.jobs.close()
            if owned:
                svc.close()
            if provider is not None:
                provider.shutdown()

    app = FastAPI(
        title="citewise",
        version=__version__,
        summary="Answers only from your documents, with citations.",
        lifespan=lifespan,
        telemetry=telemetry,  # type: ignore[arg-type]
    )
    app.state.settings = settings
    app.add_middleware(RequestContext)
    app.add_exception_handler(CitewiseError, _citewise_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    install_auth(app, settings)  # /auth, /admin, /collections and the principal
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
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    message = f"{where}: {first.get('msg', 'invalid request')}" if where else "invalid request"
    body = _error_body(request, message, "InputError", 422)
    body["detail"] = exc.errors()
    return JSONResponse(body, 422)
