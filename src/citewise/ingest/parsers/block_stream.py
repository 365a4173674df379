"""Files read as a stream of blocks instead of whole: large plain text, CSV/TSV and Excel
workbooks, and every mailbox. Each reader yields the blocks its whole-file parser would
make, so `ingest.streamed` can chunk and store them in batches with memory that does not
grow with the file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from citewise.ingest.parsers._archive import DEFAULT_MAX_INFLATED, ArchiveLimits, check_archive
from citewise.ingest.parsers._common import stem
from citewise.ingest.parsers._sniff import ZIP_MAGIC
from citewise.types import Block

_TEXT_SUFFIXES = frozenset({".txt", ".text", ".rst", ".log"})
_DELIMITED_SUFFIXES = frozenset({".csv", ".tsv", ".tab"})
_WORKBOOK_SUFFIXES = frozenset({".xlsx", ".xlsm"})
# read as a stream whatever their size: `mailbox` reads files, not bytes
ALWAYS_STREAMED_SUFFIXES = frozenset({".mbox"})
# tables read as a stream above this size: their rows, read with their header, make 10-30
# times the file's size in text (a 5 MB workbook read whole peaked at 363 MB with the model)
TABLE_SUFFIXES = _DELIMITED_SUFFIXES | _WORKBOOK_SUFFIXES
TABLE_STREAM_ABOVE = 1 << 20
STREAMED_SUFFIXES = (
    _TEXT_SUFFIXES | _DELIMITED_SUFFIXES | _WORKBOOK_SUFFIXES | ALWAYS_STREAMED_SUFFIXES
)


@dataclass(slots=True)
class BlockStream:
    """A file being read: its title and format are known at open; `blocks` is read once;
    `bytes_read()` follows the reading (progress)."""

    title: str
    format: str
    blocks: Iterator[Block]
    bytes_read: Callable[[], int]


def stream_format(path: Path, head: bytes) -> str | None:
    """The streamed reader for this file ("text", "csv", "spreadsheet", "mbox"), judged by
    extension and first bytes; None when it is parsed whole."""
    from citewise.ingest.parsers import choose_parser

    suffix = path.suffix.lower()
    if suffix in _WORKBOOK_SUFFIXES:
        return "spreadsheet" if head.startswith(ZIP_MAGIC) else None
    if suffix in _TEXT_SUFFIXES | _DELIMITED_SUFFIXES or suffix == ".mbox":
        fmt = choose_parser(head, path.name)
        return fmt if fmt in ("text", "csv", "mbox") else None
    return None


@contextmanager
def open_block_stream(
    path: Path, fmt: str, *, piece_bytes: int, max_inflated: int = DEFAULT_MAX_INFLATED
) -> Iterator[BlockStream]:
    """Opens `path` for reading as a stream in format `fmt` (from `stream_format`). Raises
    a DocumentError when the file cannot be read (binary text, a zip bomb, …)."""
    with path.open("rb") as fh:
        if fmt == "text":
            from citewise.ingest.parsers.text_stream import open_text_stream

            text = open_text_stream(fh, path.name, piece_bytes=piece_bytes)
            yield BlockStream(text.title, "text", text.blocks(), lambda: text.bytes_read)
        elif fmt == "csv":
            from citewise.ingest.parsers.delimited import stream_delimited

            rows = stream_delimited(fh, path.name, piece_bytes)
            yield BlockStream(stem(path.name), "csv", rows, fh.tell)
        elif fmt == "spreadsheet":
            from citewise.ingest.parsers import inflated_limit
            from citewise.ingest.parsers.spreadsheet import spreadsheet_blocks

            limit = inflated_limit("spreadsheet", path.stat().st_size, max_inflated)
            check_archive(fh.read(), ArchiveLimits(max_inflated=limit))
            fh.seek(0)
            sheets = spreadsheet_blocks(fh, kind="xlsx")
            yield BlockStream(stem(path.name), "spreadsheet", sheets, fh.tell)
        elif fmt == "mbox":
            from citewise.ingest.parsers.mbox import MailboxReading, mbox_blocks

            reading = MailboxReading()
            messages = mbox_blocks(path, reading)
            yield BlockStream(stem(path.name), "email", messages, lambda: reading.bytes_read)
        else:
            raise ValueError(f"no streamed reader for {fmt!r}")
