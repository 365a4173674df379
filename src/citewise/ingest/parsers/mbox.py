"""Mailboxes (.mbox) read with the standard library's `mailbox`: threads kept together (by
References / In-Reply-To, else a reply's subject), each message a section under its
thread's subject, headed by sender and date (see `_mail` for what a message yields).

Two passes, neither holding the mailbox: the first reads only each message's header lines
to group threads, the second reads one message at a time in thread order, so memory stays
at one message (capped) whatever the mailbox's size.
"""

from __future__ import annotations

import mailbox
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser
from pathlib import Path
from typing import Protocol

from citewise.errors import CorruptDocumentError
from citewise.ingest.parsers._common import finish, stem
from citewise.ingest.parsers._mail import (
    MailOptions,
    message_blocks,
    message_label,
    subject_of,
    thread_subject,
)
from citewise.types import Block, ParsedDocument

NO_TEXT = "the mailbox holds no message with any text"
MAX_MESSAGE_BYTES = 100 * 2**20
MAX_HEADER_BYTES = 1 << 20
_MESSAGE_ID = re.compile(r"<[^<>\s]+>")


class _MessageFile(Protocol):
    """What `mailbox` hands out for one message: a read-only view of its bytes."""

    def read(self, size: int | None = ..., /) -> bytes: ...
    def readline(self, size: int | None = ..., /) -> bytes: ...
    def seek(self, offset: int, whence: int = ..., /) -> None: ...
    def tell(self) -> int: ...


@dataclass(slots=True)
class Thread:
    subject: str
    keys: list[str] = field(default_factory=list)


@dataclass(slots=True)
class MailboxReading:
    """Progress and notes of one mailbox being read: bytes of messages done so far."""

    bytes_read: int = 0
    options: MailOptions = field(default_factory=MailOptions)


def _size(fh: _MessageFile) -> int:
    fh.seek(0, os.SEEK_END)
    size = fh.tell()
    fh.seek(0)
    return size


def _headers(fh: _MessageFile) -> Message:
    """The message's header lines only (up to the first blank line), parsed."""
    lines: list[bytes] = []
    read = 0
    while read < MAX_HEADER_BYTES:
        line = fh.readline()
        if not line or not line.strip():
            break
        lines.append(line)
        read += len(line)
    return BytesHeaderParser(policy=policy.default).parsebytes(b"".join(lines))


def threads(box: mailbox.mbox) -> list[Thread]:
    """The mailbox's threads in order of their first message, messages in mailbox order."""
    found: list[Thread] = []
    by_id: dict[str, Thread] = {}
    by_subject: dict[str, Thread] = {}
    for key in box.iterkeys():
        with box.get_file(key) as fh:
            head = _headers(fh)
        subject = subject_of(head)
        plain = thread_subject(subject).casefold()
        own = _MESSAGE_ID.findall(str(head.get("Message-ID", "")))
        refs = _MESSAGE_ID.findall(f"{head.get('References', '')} {head.get('In-Reply-To', '')}")
        thread = next((by_id[r] for r in refs if r in by_id), None)
        if thread is None and (refs or plain != subject.casefold()):
            thread = by_subject.get(plain)
        if thread is None:
            thread = Thread(thread_subject(subject))
            found.append(thread)
        by_subject.setdefault(plain, thread)
        for ref in own + refs:
            by_id.setdefault(ref, thread)
        thread.keys.append(key)
    return found


def mbox_blocks(path: Path, reading: MailboxReading | None = None) -> Iterator[Block]:
    """Each thread's messages in turn, read one message at a time."""
    reading = reading or MailboxReading()
    box = mailbox.mbox(str(path), create=False)
    try:
        for thread in threads(box):
            for key in thread.keys:
                with box.get_file(key) as fh:
                    size = _size(fh)
                    reading.bytes_read += size
                    if size > MAX_MESSAGE_BYTES:
                        reading.options.skipped.append(
                            f"a message in {thread.subject!r}: too large"
                        )
                        continue
                    msg = BytesParser(policy=policy.default).parsebytes(fh.read())
                where = (thread.subject, message_label(msg))
                yield from message_blocks(msg, where, reading.options)
    except (OSError, ValueError) as exc:
        raise CorruptDocumentError(f"the mailbox cannot be read ({exc})") from exc
    finally:
        box.close()


def parse_mbox(data: bytes, name: str) -> ParsedDocument:
    """A mailbox given as bytes (an attachment, an upload): `mailbox` reads files only, so
    the bytes go to a temporary file first. Files on disk are read in place (streamed)."""
    with tempfile.TemporaryDirectory(prefix="citewise-mbox-") as folder:
        path = Path(folder) / "mailbox.mbox"
        path.write_bytes(data)
        reading = MailboxReading()
        blocks = list(mbox_blocks(path, reading))
    metadata = {}
    if reading.options.skipped:
        metadata["attachments_left_out"] = "; ".join(reading.options.skipped)
    return finish(title=stem(name), blocks=blocks, fmt="email", no_text=NO_TEXT, metadata=metadata)
