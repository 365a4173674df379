"""One e-mail message → blocks (standard library `email`, policy `default`): a header line
"From: … · To: … · Date: … · Subject: …", the body (plain text preferred, else HTML read by
the HTML parser; quoted replies left out, they repeat earlier messages), then each
attachment read by its own parser under a heading named after its file, so a passage from
`report.pdf` in `message.eml` is cited as `message.eml` › `… > report.pdf`."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from email.message import EmailMessage, Message

from citewise.errors import DocumentError
from citewise.ingest.parsers._common import clean
from citewise.ingest.parsers.text import split_paragraphs
from citewise.types import Block
from citewise.types.documents import ATTACHMENT_MARK

log = logging.getLogger(__name__)
MAX_DEPTH = 3  # messages attached to messages attached to messages
MAX_ATTACHMENT_BYTES = 50 * 2**20
HEADERS = ("From", "To", "Cc", "Date", "Subject")
_QUOTED = re.compile(r"^\s*>")
_WROTE = re.compile(r"^\s*On .{4,200} wrote:\s*$")
# how deep the message being read sits inside other messages' attachments
NESTING: ContextVar[int] = ContextVar("citewise_mail_nesting", default=0)
_REPLY_PREFIX = re.compile(r"^\s*((re|fw|fwd|aw|sv|wg)\s*(\[\d+\])?\s*:\s*)+", re.I)


@dataclass(slots=True)
class MailOptions:
    """What reading attachments may cost; `skipped` collects those left out and why."""

    max_attachment_bytes: int = MAX_ATTACHMENT_BYTES
    skipped: list[str] = field(default_factory=list)


def header(msg: Message, name: str) -> str:
    """A header's text; a malformed header is read as its raw text, never raised."""
    try:
        value = msg.get(name)
    except (ValueError, IndexError, TypeError):
        value = msg.get_all(name, [""])[0] if hasattr(msg, "get_all") else ""
    return clean(str(value)) if value is not None else ""


def attachment_heading(name: str) -> str:
    """An attachment's place in the heading path, marked so that a citation can name it
    beside its message's file (`message.eml › report.pdf`, see `attachment_source`)."""
    return ATTACHMENT_MARK + name


def subject_of(msg: Message) -> str:
    return header(msg, "Subject") or "(no subject)"


def thread_subject(subject: str) -> str:
    """The subject without its reply and forward prefixes ("Re: Fwd: Budget" → "Budget")."""
    return _REPLY_PREFIX.sub("", subject).strip() or subject


def header_line(msg: Message) -> str:
    return join_headers((name, header(msg, name)) for name in HEADERS)


def join_headers(pairs: Iterable[tuple[str, str]]) -> str:
    """ "From: … · To: … · Subject: …", empty values left out."""
    return " · ".join(f"{name}: {value}" for name, value in pairs if value)


def message_label(msg: Message) -> str:
    """The message's heading inside its thread: sender and date."""
    sender = header(msg, "From")
    sender = re.sub(r"\s*<[^>]*>\s*$", "", sender) or sender
    return ", ".join(p for p in (sender, header(msg, "Date")) if p) or "(message)"


def message_blocks(
    msg: Message, path: tuple[str, ...], options: MailOptions, depth: int = 0
) -> Iterator[Block]:
    """The header line, the body and the attachments of `msg`, all under `path`."""
    line = header_line(msg)
    if line:
        yield Block(line, path)
    yield from _body(msg, path)
    if not isinstance(msg, EmailMessage):
        return
    for number, part in enumerate(msg.iter_attachments(), 1):
        yield from _attachment(part, number, path, options, depth)


def _body(msg: Message, path: tuple[str, ...]) -> Iterator[Block]:
    body = msg.get_body(("plain", "html")) if isinstance(msg, EmailMessage) else msg
    if body is None or body.is_multipart():
        return
    text = _text(body)
    if not text.strip() and isinstance(msg, EmailMessage):  # an empty plain part beside HTML
        html = msg.get_body(("html",))
        body, text = (html, _text(html)) if html is not None else (body, text)
    if body.get_content_subtype() == "html":
        yield from html_blocks(text, path)
    else:
        yield from plain_blocks(text, path)


def plain_blocks(text: str, path: tuple[str, ...]) -> Iterator[Block]:
    """A plain-text body's paragraphs, quoted replies left out."""
    for paragraph in split_paragraphs(_unquoted(text)):
        yield Block(paragraph, path)


def html_blocks(text: str, path: tuple[str, ...]) -> Iterator[Block]:
    """An HTML body read by the HTML parser, under `path`; nothing if it holds no text."""
    from citewise.ingest.parsers.html import parse_html

    try:
        page = parse_html(text.encode("utf-8"), "body.html")
    except DocumentError:
        return
    for block in page.blocks:
        yield replace(block, heading_path=path + block.heading_path, page=None)


def _text(part: Message) -> str:
    try:
        content = part.get_content() if isinstance(part, EmailMessage) else None
    except (LookupError, ValueError, AssertionError):
        content = None
    if isinstance(content, str):
        return content
    payload = part.get_payload(decode=True)
    return payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else ""


def _unquoted(text: str) -> str:
    """The text without quoted lines ("> …") and the "On … wrote:" line above them."""
    lines = text.replace("\r\n", "\n").split("\n")
    kept = [
        line
        for i, line in enumerate(lines)
        if not _QUOTED.match(line)
        and not (_WROTE.match(line) and any(_QUOTED.match(n) for n in lines[i + 1 : i + 3]))
    ]
    return "\n".join(kept)


def _attachment(
    part: Message, number: int, path: tuple[str, ...], options: MailOptions, depth: int
) -> Iterator[Block]:
    name = clean(part.get_filename() or "") or f"attachment-{number}"
    where = (*path, attachment_heading(name))
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload()
        nested = inner[0] if isinstance(inner, list) and inner else None
        if isinstance(nested, Message) and depth < MAX_DEPTH:
            yield from message_blocks(nested, where, options, depth + 1)
        return
    payload = part.get_payload(decode=True)
    if isinstance(payload, bytes):
        yield from attachment_blocks(payload, name, where, options, depth)


def attachment_blocks(
    payload: bytes, name: str, where: tuple[str, ...], options: MailOptions, depth: int
) -> Iterator[Block]:
    """A file attached to a message (at `depth`), read by its own parser under `where`;
    one that fails or is over the limit is listed in `options.skipped` instead."""
    if not payload:
        return
    if len(payload) > options.max_attachment_bytes:
        options.skipped.append(f"{name}: over the attachment limit")
        return
    from citewise.ingest.parsers import parse_bytes

    token = NESTING.set(NESTING.get() + depth + 1)
    try:
        if NESTING.get() > MAX_DEPTH:
            raise DocumentError("attached too deep inside other messages")
        doc = parse_bytes(payload, name, max_bytes=options.max_attachment_bytes, ocr="none")
    except DocumentError as exc:
        options.skipped.append(f"{name}: {exc.message}")
        log.info("attachment %s left out: %s", name, exc.message)
        return
    finally:
        NESTING.reset(token)
    inner = doc.metadata.get("attachments_left_out")
    if inner:  # what a message attached to this one left out
        options.skipped.append(f"{name} › {inner}")
    for block in doc.blocks:
        yield replace(block, heading_path=where + block.heading_path, page=None)
