"""RTF documents read with striprtf: control words and embedded pictures dropped, each
paragraph (`\\par`) a block; the code page named by `\\ansicpg` decodes `\\'xx` escapes."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from striprtf.striprtf import rtf_to_text

from citewise.errors import CorruptDocumentError
from citewise.ingest.parsers._common import clean, finish, stem
from citewise.ingest.parsers.text import text_title
from citewise.types import Block, ParsedDocument

_to_text = cast(Callable[..., str], rtf_to_text)  # striprtf ships no type information
NO_TEXT = "the RTF document contains no text"
_CODE_PAGE = re.compile(rb"\\ansicpg(\d{3,5})")
_TITLE = re.compile(r"{\\title\s+([^{}\\]{1,200})}")


def _encoding(data: bytes) -> str:
    found = _CODE_PAGE.search(data[:4096])
    name = f"cp{int(found[1])}" if found else "cp1252"
    try:
        "".encode(name)
    except LookupError:
        return "cp1252"
    return name


def parse_rtf(data: bytes, name: str) -> ParsedDocument:
    source = data.decode("latin-1")  # RTF is 7-bit; anything else is kept byte for byte
    try:
        text = _to_text(source, encoding=_encoding(data), errors="replace")
    except (ValueError, IndexError, re.error) as exc:
        raise CorruptDocumentError(f"the RTF document cannot be read ({exc})") from exc
    paragraphs = [p for p in (clean(line) for line in text.splitlines()) if p]
    declared = _TITLE.search(source[:8192])
    title = clean(declared[1]) if declared else text_title("\n".join(paragraphs[:1]), name)
    return finish(
        title=title or stem(name),
        blocks=[Block(p) for p in paragraphs],
        fmt="rtf",
        no_text=NO_TEXT,
    )
