"""The one exception tree: each class carries its CLI exit code and its HTTP status."""

from __future__ import annotations


class CitewiseError(Exception):
    """Base of every error citewise raises on purpose."""

    exit_code = 1
    http_status = 500


class InputError(CitewiseError):
    """The user's input (a query, an option, a path) is not acceptable."""

    exit_code = 2
    http_status = 400


class ConfigError(CitewiseError):
    """Settings are missing or contradictory."""

    exit_code = 2
    http_status = 500


class PluginError(ConfigError):
    """An installed plugin (a package's entry point) cannot be loaded or is not what its group
    expects; the message names the distribution to fix or uninstall."""

    def __init__(self, message: str, *, distribution: str, group: str, name: str) -> None:
        super().__init__(message)
        self.distribution = distribution
        self.group = group
        self.name = name


class DocumentError(CitewiseError):
    """A document cannot be ingested. `reason` is a short phrase for summary tables."""

    reason = "unreadable"
    http_status = 422

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
    http_status = 415


class NoTextError(DocumentError):
    """The file parsed but yielded no text (a scanned PDF, a DOCX of images)."""

    reason = "no text"


class TooLargeError(DocumentError):
    reason = "too large"
    http_status = 413


class NotFoundError(CitewiseError):
    """A named document, collection or session does not exist."""

    exit_code = 4
    http_status = 404


class BackendError(CitewiseError):
    """A backend (store, embedder, LLM, memory) failed."""

    exit_code = 3
    http_status = 503


class StoreError(BackendError):
    pass


class StoreConnectionError(StoreError):
    """The store's connection was cut (a server restart) and the work in it rolled back:
    doing it again can succeed."""


class EmbedderError(BackendError):
    pass


class AuthError(CitewiseError):
    """Missing, wrong or expired credentials."""

    exit_code = 5
    http_status = 401


class ForbiddenError(AuthError):
    """Valid credentials without the right: a missing scope or no grant on a collection."""

    exit_code = 6
    http_status = 403


class RateLimitedError(AuthError):
    """Too many requests for one user or key; `retry_after` is in seconds."""

    exit_code = 7
    http_status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class MemoryBackendError(BackendError):
    """The conversation memory backend (Redis, SQLite) failed; the message names its URL."""
