"""Plain-text parser: decoded with BOM/UTF-8/charset detection, paragraphs split at blank
lines, the first line as title when it is short (CSV/TSV files: see `delimited`)."""

from __future__ import annotations

import re

from citewise.errors import EmptyDocumentError
from citewise.ingest.parsers._common import clean, finish, stem
from citewise.ingest.parsers._decode import decode_text
from citewise.types import Block, ParsedDocument

NO_TEXT = "the text file contains no readable text"
_BLANK_LINES = re.compile(r"\n[ \t\f\v]*\n")
MAX_TITLE = 100


def split_paragraphs(text: str) -> list[str]:
    """Paragraphs separated by blank lines, whitespace inside each collapsed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [p for p in (clean(chunk) for chunk in _BLANK_LINES.split(text)) if p]


def text_title(text: str, name: str) -> str:
    """The first non-empty line if it is short, else the file stem."""
    for line in text.splitlines():
        line = clean(line)
        if line:
            return line if len(line) < MAX_TITLE else stem(name)
    return stem(name)


def parse_text(data: bytes, name: str) -> ParsedDocument:
    text = decode_text(data, name)
    if not text.strip():
        raise EmptyDocumentError("the file contains only whitespace")
    paragraphs = [Block(p) for p in split_paragraphs(text)]
    return finish(title=text_title(text, name), blocks=paragraphs, fmt="text", no_text=NO_TEXT)
