"""Which collections a principal's question searches, and where its uploads go.

Every search then runs per collection inside the store's SQL (`SearchFilter.collection`),
so a collection left out here is never read; nothing is filtered after retrieval. A question
searches each of the returned collections and merges the lists, each passage once, the
earlier collection winning ties (`citewise.retrieve.collections.search_collections`)."""

from __future__ import annotations

import hashlib

from citewise.auth.models import Principal
from citewise.errors import ForbiddenError


def readable_collections(
    principal: Principal, requested: str | None, *, chat_id: str | None = None
) -> list[str]:
    """In search order: the chat's own documents (with `chat_id`), the requested collection
    or else the client's own, then the global one; no name twice. A home the principal may
    no longer read (it left the tenant's group) is skipped."""
    if requested is not None and not principal.may_read(requested):
        raise ForbiddenError(f"no access to collection '{requested}'")
    own = requested or principal.home_collection
    ordered = [chat_collection(principal, chat_id)] if chat_id else []
    if own and principal.may_read(own):
        ordered.append(own)
    ordered.append(principal.global_collection)
    return list(dict.fromkeys(c for c in ordered if c))


def writable_collection(principal: Principal, requested: str | None) -> str:
    """Where the principal's upload goes: the requested collection, else its own."""
    target = requested or principal.home_collection or principal.global_collection
    if not principal.may_write(target):
        raise ForbiddenError(f"no write access to collection '{target}'")
    return target


def chat_collection(principal: Principal, chat_id: str) -> str:
    """The collection of one chat's documents. Named from the user and the chat id so that
    nobody else reaches it by knowing the chat id."""
    digest = hashlib.sha256(f"{principal.user_id}\0{chat_id}".encode()).hexdigest()[:20]
    return f"chat-{digest}"
