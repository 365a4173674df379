"""`/mcp` on `citewise serve`: the MCP server over Streamable HTTP, behind the HTTP API's
auth. Each request's credential (`Authorization: Bearer …` or `X-API-Key`, a JWT or an API
key) resolves to a principal through the same `AuthService` as the API's routes; a loopback
server that does not require auth treats a caller without one as the local admin, as the
API does. The principal reaches the tools through a context variable (the SDK carries each
message's context to its handler) and owns the MCP session it opened."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar

import anyio
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from citewise.assistant import Assistant
from citewise.auth.models import Principal
from citewise.auth.service import AuthService, is_loopback
from citewise.errors import CitewiseError, RateLimitedError
from citewise.mcp.server import build_server

PATH = "/mcp"
_principal: ContextVar[Principal | None] = ContextVar("citewise_mcp_principal", default=None)


def request_principal() -> Principal:
    principal = _principal.get()
    if principal is None:  # every request passes `McpEndpoint.__call__` first
        raise RuntimeError("an MCP request reached a tool without its principal")
    return principal


class McpEndpoint:
    """An ASGI app for the `/mcp` route; `running()` belongs in the app's lifespan."""

    def __init__(self, assistant: Assistant, auth: AuthService, host: str) -> None:
        self.auth = auth
        server = build_server(assistant, request_principal)
        # makes the server's session manager; its own Starlette app is not used (the route
        # is this endpoint, inside the API's app, behind the API's auth)
        server.streamable_http_app(
            streamable_http_path=PATH, host=host, transport_security=transport_security(host)
        )
        self.sessions: StreamableHTTPSessionManager = server.session_manager
        self.handler = StreamableHTTPASGIApp(self.sessions)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with self.sessions.run():
            yield

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        try:
            principal = await anyio.to_thread.run_sync(self.auth.authenticate, credential(headers))
            self.auth.require(principal, "read")
        except CitewiseError as exc:
            await error_response(exc)(scope, receive, send)
            return
        # the SDK lets only the principal that opened an MCP session use it
        scope["user"] = AuthenticatedUser(
            AccessToken(
                token="", client_id=principal.user_id, subject=principal.user_id,
                scopes=sorted(principal.scopes),
            )
        )  # fmt: skip
        token = _principal.set(principal)
        try:
            await self.handler(scope, receive, send)
        finally:
            _principal.reset(token)


def credential(headers: Headers) -> str | None:
    """The API's credential headers: a bearer token (JWT or API key) or `X-API-Key`."""
    scheme, _, value = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return headers.get("x-api-key") or None


def error_response(exc: CitewiseError) -> JSONResponse:
    """The API's error shape and headers (`create_app`'s handler)."""
    headers: dict[str, str] = {}
    if isinstance(exc, RateLimitedError):
        headers["Retry-After"] = str(exc.retry_after)
    if exc.http_status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    body = {"error": str(exc), "type": type(exc).__name__}
    return JSONResponse(body, exc.http_status, headers=headers)


def transport_security(host: str) -> TransportSecuritySettings:
    """On loopback, only loopback Host and Origin headers (a web page's DNS rebinding cannot
    reach a server without login); elsewhere every request carries a credential anyway."""
    if not is_loopback(host):
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
    )
