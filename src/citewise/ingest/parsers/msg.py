"""Outlook messages (.msg) read with extract-msg, an optional dependency (the `outlook` extra:
it is GPL-3.0 and brings a dozen packages, so a user installs it by choice). The message
reads like an `.eml`: a header line, the body (plain text, else HTML, else RTF), then each
attachment by its own parser under the message (`_mail`); attached Outlook messages are read
as messages, three deep at most. Appointments, contacts, tasks and notes read the same way
(subject, body, attachments); S/MIME-encrypted and rights-protected messages are refused.
"""

from __future__ import annotations

import logging
import struct
from collections.abc import Iterator
from email.utils import format_datetime
from typing import Any

from citewise.errors import (
    CorruptDocumentError,
    EncryptedDocumentError,
    UnsupportedFormatError,
)
from citewise.ingest.parsers._common import clean, finish
from citewise.ingest.parsers._mail import (
    MAX_DEPTH,
    MailOptions,
    attachment_blocks,
    attachment_heading,
    html_blocks,
    join_headers,
    plain_blocks,
)
from citewise.ingest.parsers._outlook import MISSING
from citewise.types import Block, ParsedDocument

NO_TEXT = "the Outlook message has no text in its body or readable attachments"
# message classes whose content only the recipient's key opens
_PROTECTED = (".smime", ".rpmsg")
# what extract-msg and olefile raise on a damaged file, besides their own exceptions
_DAMAGED = (OSError, ValueError, KeyError, IndexError, TypeError, struct.error, UnicodeError)
log = logging.getLogger(__name__)


def parse_msg(data: bytes, name: str) -> ParsedDocument:
    item = _open(data)
    try:
        subject = _field(item, "subject") or "(no subject)"
        options = MailOptions()
        blocks = list(_item_blocks(item, (subject,), options, 0))
        metadata = {k.lower(): v for k, v in _headers(item) if v}
    finally:
        item.close()
    if options.skipped:
        metadata["attachments_left_out"] = "; ".join(options.skipped)
    return finish(title=subject, blocks=blocks, fmt="msg", no_text=NO_TEXT, metadata=metadata)


def _open(data: bytes) -> Any:
    try:
        import extract_msg
        from extract_msg.exceptions import ExMsgBaseException
    except ImportError as exc:
        raise UnsupportedFormatError(MISSING) from exc
    from extract_msg.msg_classes import MessageBase, MSGFile

    try:
        # the class first: openMsg reads a signed message's content before returning it
        with MSGFile(data) as plain:  # type: ignore[no-untyped-call]
            kind = str(plain.classType or "").lower()
        if kind.endswith(_PROTECTED) or ".rpmsg." in kind:
            raise EncryptedDocumentError(
                "the Outlook message is encrypted (S/MIME or rights protection); only the "
                "recipient's mail program can open it"
            )
        item = extract_msg.openMsg(data, strict=False)
    except (ExMsgBaseException, *_DAMAGED) as exc:
        raise CorruptDocumentError(f"the Outlook message cannot be read ({exc})") from exc
    if not isinstance(item, MessageBase):
        item.close()
        raise UnsupportedFormatError(
            f"an Outlook item of class {kind or 'unknown'!r}, not a message, appointment, "
            "contact, task or note"
        )
    return item


def _field(item: Any, attr: str) -> str:
    """A property as clean text; a property extract-msg cannot decode reads as ''."""
    try:
        value = getattr(item, attr)
    except _DAMAGED as exc:
        log.info("Outlook property %s unreadable: %s", attr, exc)
        return ""
    if value is None:
        return ""
    if hasattr(value, "tzinfo"):  # the date: as an e-mail's Date header reads
        return format_datetime(value)
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return clean(str(value).replace("\x00", ""))  # older writers end strings with NUL


def _headers(item: Any) -> list[tuple[str, str]]:
    attrs = (("From", "sender"), ("To", "to"), ("Cc", "cc"), ("Date", "date"))
    return [(h, _field(item, a)) for h, a in attrs] + [("Subject", _field(item, "subject"))]


def _item_blocks(
    item: Any, path: tuple[str, ...], options: MailOptions, depth: int
) -> Iterator[Block]:
    line = join_headers(_headers(item))
    if line:
        yield Block(line, path)
    yield from _body(item, path)
    try:
        attachments = list(item.attachments)
    except _DAMAGED as exc:
        options.skipped.append(f"attachments: {exc}")
        return
    for number, attachment in enumerate(attachments, 1):
        yield from _attachment(attachment, number, path, options, depth)


def _body(item: Any, path: tuple[str, ...]) -> Iterator[Block]:
    text = _raw(item, "body")
    if text.strip():
        yield from plain_blocks(text, path)
        return
    html = _raw(item, "htmlBody")
    if html:
        yield from html_blocks(html, path)
        return
    rtf = _raw(item, "rtfBody")
    if rtf:
        from citewise.ingest.parsers.rtf import parse_rtf

        try:
            doc = parse_rtf(rtf.encode("latin-1", "replace"), "body.rtf")
        except CorruptDocumentError:
            return
        yield from (Block(b.text, path) for b in doc.blocks)


def _raw(item: Any, attr: str) -> str:
    """A body as it is (line breaks kept), '' when missing or unreadable."""
    try:
        value = getattr(item, attr)
    except _DAMAGED:
        return ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace") if attr != "rtfBody" else value.decode("latin-1")
    return value.replace("\x00", "") if isinstance(value, str) else ""


def _attachment(
    attachment: Any, number: int, path: tuple[str, ...], options: MailOptions, depth: int
) -> Iterator[Block]:
    from extract_msg.msg_classes import MessageBase

    name = next(
        (
            n
            for a in ("longFilename", "shortFilename", "displayName")
            if (n := _field(attachment, a))
        ),
        f"attachment-{number}",
    )
    where = (*path, attachment_heading(name))
    try:
        data = attachment.data
    except _DAMAGED as exc:
        options.skipped.append(f"{name}: {exc}")
        return
    if isinstance(data, MessageBase):
        if depth < MAX_DEPTH:
            yield from _item_blocks(data, where, options, depth + 1)
        else:
            options.skipped.append(f"{name}: attached too deep inside other messages")
    elif isinstance(data, bytes):
        yield from attachment_blocks(data, name, where, options, depth)
    else:
        options.skipped.append(f"{name}: not attached (a link or an unsupported kind)")
