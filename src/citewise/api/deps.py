"""Dependencies as types: routers declare `assistant: AssistantDep`, `principal: Reader`
(or `Writer`, `Admin`, from `api.security`) and get the process's one `Assistant` and the
caller.
The request-scoped ones are coroutines: a plain function would cost every request a thread
hop (FastAPI runs sync dependencies on its thread pool) for an attribute read."""

from __future__ import annotations

from typing import Annotated

from anyio import to_thread
from fastapi import Depends, Request

from citewise.assistant import Assistant
from citewise.auth.access import chat_collection, readable_collections, writable_collection
from citewise.auth.models import Principal
from citewise.config import Settings
from citewise.errors import ForbiddenError, InputError
from citewise.jobs.base import JobQueue

__all__ = ["chat_collection"]
from citewise.text.names import valid_collection_name


async def get_assistant(request: Request) -> Assistant:
    assistant: Assistant = request.app.state.assistant
    return assistant


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_jobs(request: Request) -> JobQueue:
    jobs: JobQueue = request.app.state.jobs
    return jobs


AssistantDep = Annotated[Assistant, Depends(get_assistant)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
JobsDep = Annotated[JobQueue, Depends(get_jobs)]


def readable(
    principal: Principal,
    requested: str | None,
    assistant: Assistant,
    *,
    chat_id: str | None = None,
) -> list[str]:
    """The collections a question of `principal` searches, in order (never empty). A
    collection named that does not exist is a 404, never a silent answer from another one."""
    names = _readable(principal, requested, chat_id)
    if _unsure(principal, requested):
        assistant.require_collection(str(requested))
    return names


async def readable_async(
    principal: Principal,
    requested: str | None,
    assistant: Assistant,
    *,
    chat_id: str | None = None,
) -> list[str]:
    """`readable` for a coroutine route: the store is read on a worker thread, and only when
    a collection is named."""
    names = _readable(principal, requested, chat_id)
    if _unsure(principal, requested):
        await to_thread.run_sync(assistant.require_collection, str(requested))
    return names


def _readable(principal: Principal, requested: str | None, chat_id: str | None) -> list[str]:
    names = readable_collections(principal, checked_collection(requested), chat_id=chat_id)
    if not names:
        raise ForbiddenError("no readable collection")
    return names


def _unsure(principal: Principal, requested: str | None) -> bool:
    """Whether a named collection must be looked up: the caller's own and the global one
    are theirs to read before anything is ingested into them."""
    return requested is not None and requested not in (
        principal.global_collection,
        principal.home_collection,
    )


def checked_collection(name: str | None) -> str | None:
    """A collection name from a request: it also names a folder (kept uploads), so only
    letters, digits, '-', '_' and inner dots."""
    if name is None:
        return None
    ok = valid_collection_name(name)
    if not ok or name.startswith("."):
        raise InputError(f"invalid collection name {name!r}")
    return name


def writable(principal: Principal, requested: str | None) -> str:
    return writable_collection(principal, checked_collection(requested))


def session_key(principal: Principal, session_id: str | None) -> str | None:
    """The memory key of a caller's session: callers never share a session id space.
    Local (no-auth) callers use the plain id, so the CLI's sessions are the same."""
    if session_id is None or principal.via == "local":
        return session_id
    return f"u{principal.user_id}.{session_id}"


def public_session(principal: Principal, key: str) -> str:
    if principal.via == "local":
        return key
    return key.removeprefix(f"u{principal.user_id}.")


def check_chat_id(chat_id: str) -> str:
    if not valid_collection_name(chat_id):
        raise InputError("chat ids use letters, digits, '-', '_' or '.' (1-64 chars)")
    return chat_id
