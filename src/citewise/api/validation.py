"""What a request that fails validation is told: 415 when its body is not in the media type
the route reads (a form sent to a JSON route), else 422 naming the first bad field. The
errors are made printable first: pydantic keeps the raw input, bytes included."""

from __future__ import annotations

from email.message import Message
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.params import Form
from fastapi.routing import APIRoute

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"
MAX_INPUT_CHARS = 200
LABELS = {
    JSON: "a JSON body (Content-Type: application/json)",
    FORM: "a form (Content-Type: application/x-www-form-urlencoded or multipart/form-data)",
}


def explain(request: Request, exc: RequestValidationError) -> tuple[int, str, str, list[Any]]:
    """(status, message, error type, printable details)."""
    details = [printable(e) for e in exc.errors()]
    expected, sent = expected_media(request), request.headers.get("content-type", "")
    body_failed = any(tuple(e.get("loc", ()))[:1] == ("body",) for e in details)
    if body_failed and expected is not None and sent and not accepts(expected, sent):
        message = f"this route reads {LABELS[expected]}, not {media_type(sent)}"
        return 415, message, "UnsupportedMediaTypeError", details
    return 422, summary(details[0] if details else {}), "InputError", details


def summary(error: dict[str, Any]) -> str:
    """One line for the first error: the field and what is wrong with it."""
    if error.get("type") == "json_invalid":
        reason = error.get("ctx", {}).get("error", "")
        return f"the body is not valid JSON: {reason}".rstrip(": ")
    loc = [str(p) for p in error.get("loc", ())]
    where = ".".join(p for p in loc if p != "body") or ("body" if loc else "")
    msg = str(error.get("msg", "invalid request"))
    return f"{where}: {msg}" if where else msg


def expected_media(request: Request) -> str | None:
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or route.body_field is None:
        return None
    return FORM if isinstance(route.body_field.field_info, Form) else JSON


def media_type(content_type: str) -> str:
    message = Message()
    message["content-type"] = content_type
    return message.get_content_type()


def accepts(expected: str, content_type: str) -> bool:
    sent = media_type(content_type)
    if expected == FORM:
        return sent in (FORM, "multipart/form-data")
    return sent == JSON or (sent.startswith("application/") and sent.endswith("+json"))


def printable(error: Any) -> dict[str, Any]:
    """An error entry that JSON can carry: raw bytes decoded (cut short), context objects
    (exceptions) as their message."""
    entry = dict(error)
    raw = entry.get("input")
    if isinstance(raw, bytes | bytearray):
        entry["input"] = bytes(raw[:MAX_INPUT_CHARS]).decode("utf-8", errors="replace")
    elif isinstance(raw, str) and len(raw) > MAX_INPUT_CHARS:
        entry["input"] = raw[:MAX_INPUT_CHARS]
    if isinstance(entry.get("ctx"), dict):
        entry["ctx"] = {k: v if isinstance(v, int | float | str) else str(v)
                        for k, v in entry["ctx"].items()}  # fmt: skip
    entry["loc"] = list(entry.get("loc", ()))
    return entry
