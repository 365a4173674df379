"""The one exception tree. The CLI maps these to exit codes, the HTTP API to statuses."""

from __future__ import annotations


class CitewiseError(Exception):
    """Base of every error citewise raises on purpose."""

    exit_code = 1


class InputError(CitewiseError):
    """The user's input (a query, an option, a path) is not acceptable."""

    exit_code = 2


class ConfigError(CitewiseError):
    """Settings are missing or contradictory."""

    exit_code = 2


class DocumentError(CitewiseError):
    """A document cannot be ingested. `reason` is a short phrase for summary tables."""

    reason = "unreadable"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class EmptyDocumentError(DocumentError):
    reason = "empty"


class CorruptDocumentError(DocumentError):
    reason = "corrupt"


class EncryptedDocumentError(DocumentError):
    reason = "encrypted"


class UnsupportedFormatError(DocumentError):
    reason = "unsupported"


class NoTextError(DocumentError):
    """The file parsed but yielded no text (a scanned PDF, a DOCX of images)."""

    reason = "no text"


class TooLargeError(DocumentError):
    reason = "too large"


class NotFoundError(CitewiseError):
    """A named document, collection or session does not exist."""

    exit_code = 4


class BackendError(CitewiseError):
    """A backend (store, embedder, LLM, memory) failed."""

    exit_code = 3


class StoreError(BackendError):
    pass


class EmbedderError(BackendError):
    pass


class AuthError(CitewiseError):
    exit_code = 5


class MemoryBackendError(BackendError):
    """The conversation memory backend (Redis, SQLite) failed; the message names its URL."""
