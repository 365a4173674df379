"""FastAPI dependencies for who is calling: `current_principal` and `require_scope(scope)`.

`create_app` keeps the process's `AuthService` on `app.state.auth`. A credential is a JWT
from POST /auth/token or an API key (`cwk_…`), sent as `Authorization: Bearer …` (what
OpenAI clients send) or as `X-API-Key`. Without one, a loopback server that does not require
auth treats the caller as the local admin; otherwise 401. Failures raise the error tree
(`AuthError` 401, `ForbiddenError` 403, `RateLimitedError` 429 with Retry-After), which
`create_app` maps to responses. The dependencies are coroutines (a plain function costs every
request a thread hop); only checking a credential, which reads the user store, runs on a
thread. Routes pick their collections with
`citewise.auth.access.readable_collections(principal, requested)`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from anyio import to_thread
from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, OAuth2PasswordBearer

from citewise.auth.models import SCOPES, Principal
from citewise.auth.service import AuthService
from citewise.errors import ForbiddenError

oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/auth/token", auto_error=False)
api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False)


async def get_auth(request: Request) -> AuthService:
    service = getattr(request.app.state, "auth", None)
    if not isinstance(service, AuthService):
        raise RuntimeError("create_app keeps the AuthService on app.state.auth")
    return service


AuthDep = Annotated[AuthService, Depends(get_auth)]


async def current_principal(
    request: Request,
    auth: AuthDep,
    bearer: Annotated[str | None, Depends(oauth2_scheme)],
    api_key: Annotated[str | None, Depends(api_key_header)],
) -> Principal:
    credential = bearer or api_key
    # AuthError → 401, RateLimited → 429; without a credential nothing is read
    if credential:
        principal = await to_thread.run_sync(auth.authenticate, credential)
    else:
        principal = auth.authenticate(None)
    request.state.principal = principal
    return principal


def require_scope(scope: str) -> Callable[[Principal], Awaitable[Principal]]:
    """A dependency: the caller, if its credential carries `scope` (read, write, admin)."""
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}: one of {', '.join(SCOPES)}")

    async def dependency(
        principal: Annotated[Principal, Depends(current_principal)],
    ) -> Principal:
        if scope not in principal.scopes:
            raise ForbiddenError(f"this credential lacks the '{scope}' scope")
        return principal

    return dependency


CurrentPrincipal = Annotated[Principal, Depends(current_principal)]
Reader = Annotated[Principal, Depends(require_scope("read"))]
Writer = Annotated[Principal, Depends(require_scope("write"))]
Admin = Annotated[Principal, Depends(require_scope("admin"))]
