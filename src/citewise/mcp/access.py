"""What one MCP caller may read, with the HTTP API's rules: the `read` scope, the collections
`auth.access.readable_collections` resolves, and conversation ids kept apart per user."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from citewise.assistant import Assistant
from citewise.auth.access import readable_collections
from citewise.auth.models import Principal
from citewise.errors import ForbiddenError, InputError, NotFoundError
from citewise.types import DocumentInfo
from citewise.types.search import ChunkRecord


@dataclass(frozen=True)
class CallerAccess:
    assistant: Assistant
    principal: Principal

    def collections(self, requested: str | None = None) -> list[str]:
        """The collections this caller's question searches, in order (never empty)."""
        if "read" not in self.principal.scopes:
            raise ForbiddenError("this credential lacks the 'read' scope")
        names = readable_collections(self.principal, requested)
        if not names:
            raise ForbiddenError("no readable collection")
        if requested is not None and requested not in (
            self.principal.global_collection,
            self.principal.home_collection,
        ):  # a mistyped collection: the HTTP API's 404, not another collection's answer
            self.assistant.require_collection(requested)
        return names

    def documents(self, requested: str | None = None) -> list[DocumentInfo]:
        return [
            doc
            for name in self.collections(requested)
            for doc in self.assistant.documents(collection=name)
        ]

    def document(self, source: str) -> DocumentInfo:
        """The first readable collection's document named `source`."""
        for name in self.collections():
            doc = self.assistant.find_document(source, collection=name)
            if doc is not None:
                return doc
        raise NotFoundError(f"no document '{source}' in a collection you can read")

    def passage(self, chunk_id: int) -> ChunkRecord:
        """A passage of a readable document; another collection's passage is not found,
        exactly like a passage that does not exist."""
        readable = {doc.doc_id for doc in self.documents()}
        found = [r for r in self.assistant.passages([chunk_id]) if r.doc_id in readable]
        if not found:
            raise NotFoundError(f"no passage {chunk_id} in a collection you can read")
        return found[0]

    def document_text(self, doc: DocumentInfo) -> str:
        """The document's text in reading order: each parent section once (passages overlap)."""
        parts: dict[int, str] = {}
        for rec in self.assistant.document_passages(doc.doc_id):
            parts.setdefault(rec.parent_id, rec.parent_text or rec.text)
        return "\n\n".join(parts.values())

    @contextmanager
    def session(self, given: str | None) -> Iterator[str]:
        """The memory key of a conversation: `given` continues (or starts) one of this
        caller's; without it the question is one-shot and forgotten afterwards."""
        if given is not None and not 1 <= len(given) <= 64:
            raise InputError("a session id has 1-64 characters")
        public = given or f"mcp-{uuid.uuid4().hex[:12]}"
        key = public if self.principal.via == "local" else f"u{self.principal.user_id}.{public}"
        try:
            yield key
        finally:
            if given is None:
                self.assistant.forget_session(key)
