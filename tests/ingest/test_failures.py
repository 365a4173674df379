"""The one-line reason a file failed (plain values)."""

from __future__ import annotations

from citewise.errors import EncryptedDocumentError
from citewise.ingest.failures import failure_reason


def test_a_documents_own_problem_is_its_reason() -> None:
    reason = failure_reason(EncryptedDocumentError("the PDF needs a password"))
    assert reason.endswith(": the PDF needs a password") and not reason.startswith("parser")


def test_an_unreadable_file_says_what_the_os_says() -> None:
    assert (
        failure_reason(PermissionError(13, "Permission denied")) == "cannot read: Permission denied"
    )


def test_anything_else_is_named_by_its_error() -> None:
    assert failure_reason(KeyError("x")) == "parser error: KeyError: 'x'"
