"""CSV and TSV files read as rows, through the same row reading as spreadsheets: the first
row is the header, each later row "<column>: <value> · …", cited by row range. The
delimiter is judged from a sample (a European ".csv" is often separated by semicolons)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import BinaryIO

from citewise.errors import CorruptDocumentError, EmptyDocumentError
from citewise.ingest.parsers._common import finish, stem
from citewise.ingest.parsers._decode import decode_text, prefix_encoding
from citewise.ingest.parsers._rows import row_blocks
from citewise.types import Block, ParsedDocument

NO_TEXT = "the delimited file has no values"
_DEFAULT = {".tsv": "\t", ".tab": "\t"}
_CANDIDATES = ",;\t|"
_SAMPLE_CHARS = 64 * 1024


def delimiter_for(sample: str, name: str) -> str:
    """The sample's delimiter among , ; tab |, else the extension's default."""
    fallback = _DEFAULT.get(PurePath(name).suffix.lower(), ",")
    try:
        found = csv.Sniffer().sniff(sample[:_SAMPLE_CHARS], delimiters=_CANDIDATES).delimiter
    except csv.Error:
        return fallback
    return found if fallback == "," or found == fallback else fallback


def delimited_blocks(lines: Iterable[str], delimiter: str) -> Iterator[Block]:
    """Row blocks of delimited text read lazily; an over-long field is reported as damage."""
    reader = csv.reader(lines, delimiter=delimiter)
    try:
        yield from row_blocks(reader)
    except csv.Error as exc:
        raise CorruptDocumentError(f"line {reader.line_num}: {exc}") from exc


def parse_delimited(data: bytes, name: str) -> ParsedDocument:
    text = decode_text(data, name)
    if not text.strip():
        raise EmptyDocumentError("the file contains only whitespace")
    blocks = delimited_blocks(io.StringIO(text, newline=None), delimiter_for(text, name))
    return finish(title=stem(name), blocks=blocks, fmt="csv", no_text=NO_TEXT)


def stream_delimited(fh: BinaryIO, name: str, piece_bytes: int) -> Iterator[Block]:
    """Row blocks of a delimited file read as a stream (the encoding judged on its first
    piece): memory stays at one row block whatever the file's size."""
    first = fh.read(piece_bytes)
    encoding, bom = prefix_encoding(first, name)
    sample = first[bom:].decode(encoding, errors="ignore")
    fh.seek(bom)
    text = io.TextIOWrapper(fh, encoding=encoding, errors="replace", newline="")
    try:
        yield from delimited_blocks(text, delimiter_for(sample, name))
    finally:
        text.detach()
