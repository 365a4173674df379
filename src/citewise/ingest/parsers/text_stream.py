"""Plain text read as a stream: bytes are read in pieces, decoded incrementally (charset
judged on the first piece), and yielded as the same paragraph blocks `parse_text` makes, so
memory stays bounded by the piece size whatever the file's size.

A paragraph longer than a piece (a log without blank lines) is cut at its last line break
inside the piece (else at a space, else anywhere) and yielded as several blocks.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from citewise.ingest.parsers._common import clean
from citewise.ingest.parsers._decode import prefix_encoding
from citewise.ingest.parsers.text import _BLANK_LINES, text_title
from citewise.types import Block

DEFAULT_PIECE_BYTES = 1 << 20


@dataclass(slots=True)
class TextStream:
    """A text file being read: its encoding and title are known from the first piece;
    `blocks()` reads the rest. `bytes_read` follows the reading (progress)."""

    fh: BinaryIO
    encoding: str
    title: str
    piece_bytes: int
    first: bytes
    bytes_read: int = 0
    _started: bool = field(default=False, repr=False)

    def blocks(self) -> Iterator[Block]:
        """The paragraphs in reading order (each block at most `piece_bytes` characters)."""
        if self._started:
            raise RuntimeError("a text stream is read once")
        self._started = True
        for paragraph in paragraphs(self._texts(), self.piece_bytes):
            yield Block(paragraph)

    def _texts(self) -> Iterator[str]:
        decoder = codecs.getincrementaldecoder(self.encoding)(errors="replace")
        piece = self.first
        self.first = b""
        while piece:
            self.bytes_read += len(piece)
            text = decoder.decode(piece)
            if text:
                yield text
            piece = self.fh.read(self.piece_bytes)
        tail = decoder.decode(b"", final=True)
        if tail:
            yield tail


def open_text_stream(
    fh: BinaryIO, name: str, *, piece_bytes: int = DEFAULT_PIECE_BYTES
) -> TextStream:
    """Reads the first piece of `fh` to choose the encoding (BOM, UTF-8, plausible
    Windows-1252, charset-normalizer) and the title. Raises UnsupportedFormatError for
    binary content."""
    first = fh.read(piece_bytes)
    encoding, bom = prefix_encoding(first, name)
    head = first[bom:].decode(encoding, errors="ignore")
    title = text_title(head.replace("\r\n", "\n").replace("\r", "\n"), name)
    return TextStream(fh, encoding, title, piece_bytes, first[bom:], bytes_read=bom)


def paragraphs(texts: Iterator[str], max_chars: int) -> Iterator[str]:
    """Cleaned paragraphs (split at blank lines, line endings normalized) of the text the
    pieces of `texts` make together, each at most `max_chars` characters long."""
    carry = ""
    for text in texts:
        buffer = carry + text
        hold = "\r" if buffer.endswith("\r") else ""  # its "\n" may open the next piece
        buffer = buffer[: len(buffer) - len(hold)].replace("\r\n", "\n").replace("\r", "\n")
        *complete, carry = _BLANK_LINES.split(buffer)
        for paragraph in complete:
            yield from _cleaned(paragraph, max_chars)
        while len(carry) > max_chars:
            cut = _cut_point(carry, max_chars)
            yield from _cleaned(carry[:cut], max_chars)
            carry = carry[cut:]
        carry += hold
    yield from _cleaned(carry.replace("\r", "\n"), max_chars)


def _cut_point(text: str, max_chars: int) -> int:
    for sep in ("\n", " "):
        cut = text.rfind(sep, 1, max_chars)
        if cut > 0:
            return cut
    return max_chars


def _cleaned(paragraph: str, max_chars: int) -> Iterator[str]:
    text = clean(paragraph)
    while len(text) > max_chars:  # collapsing never lengthens; this is the cut carry
        cut = _cut_point(text, max_chars)
        yield text[:cut].strip()
        text = text[cut:].strip()
    if text:
        yield text
