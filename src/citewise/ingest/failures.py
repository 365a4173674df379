"""Why a file failed, in one line for the ingest report (pure)."""

from __future__ import annotations

from citewise.errors import DocumentError


def failure_reason(exc: BaseException) -> str:
    """A document's own problem as its reason; an unreadable file as the OS says it; anything
    else (a parser bug on one odd file) as the error it raised."""
    if isinstance(exc, DocumentError):
        return f"{exc.reason}: {exc.message}"
    if isinstance(exc, OSError):
        return f"cannot read: {exc.strerror or exc}"
    return f"parser error: {type(exc).__name__}: {exc}"
