"""One e-mail message saved as a file (.eml): its header line, body and attachments (see
`_mail`); the subject is the title and the message's heading."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser

from citewise.ingest.parsers._common import finish
from citewise.ingest.parsers._mail import HEADERS, MailOptions, header, message_blocks, subject_of
from citewise.types import ParsedDocument

NO_TEXT = "the e-mail has no text in its body or readable attachments"


def parse_eml(data: bytes, name: str) -> ParsedDocument:
    msg = BytesParser(policy=policy.default).parsebytes(data)
    subject = subject_of(msg)
    options = MailOptions()
    blocks = list(message_blocks(msg, (subject,), options))
    metadata = {name.lower(): value for name in HEADERS if (value := header(msg, name))}
    if options.skipped:
        metadata["attachments_left_out"] = "; ".join(options.skipped)
    return finish(title=subject, blocks=blocks, fmt="email", no_text=NO_TEXT, metadata=metadata)
