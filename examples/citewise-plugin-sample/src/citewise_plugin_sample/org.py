"""Org-mode → citewise's `ParsedDocument`.

Headlines make the heading path (TODO keywords, priorities and tags left out); paragraphs,
plain lists, tables and source/example blocks become blocks. Comments, drawers, planning
lines, `#+KEYWORD:` lines and COMMENT subtrees are left out, as Org's own export does.
Subtrees encrypted with org-crypt are left out; a file with nothing else raises
`EncryptedDocumentError`. The file is read line by line, so memory stays in proportion to it.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import PurePath

from citewise.errors import (
    CorruptDocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    NoTextError,
)
from citewise.types import Block, ParsedDocument

FORMAT = "org"
_CODING = re.compile(rb"-\*-.*coding:\s*([\w.-]+)")
_HEADLINE = re.compile(r"(\*+)\s+(.*)")
_TODO = re.compile(r"(TODO|DONE|NEXT|WAITING|CANCELLED)\s+")
_PRIORITY = re.compile(r"\[#[A-Z0-9]\]\s*")
_TAGS = re.compile(r"\s+(:[\w@#%]+)+:\s*$")
_KEYWORD = re.compile(r"#\+(\w+):\s*(.*)")
_BEGIN = re.compile(r"#\+begin_(\w+)", re.IGNORECASE)
_DRAWER = re.compile(r":[\w-]+:")
_PLANNING = re.compile(r"(SCHEDULED|DEADLINE|CLOSED):")
_ITEM = re.compile(r"(\s*)([-+]|\d+[.)])\s+(.*)")
_RULE = re.compile(r"\|[-+]+\|?")
_LINK = re.compile(r"\[\[([^\]]+)\](?:\[([^\]]+)\])?\]")
_MARKUP = re.compile(r"(^|[\s(\"'])([*/_=~+])(\S|\S.*?\S)\2(?=[\s.,;:!?)\"']|$)")
_WS = re.compile(r"\s+")
_CODE_BLOCKS = {"src": "code", "example": "code", "quote": "text", "verse": "text"}
_METADATA = ("author", "date", "email", "language")


def parse_org(data: bytes, name: str, **options: str) -> ParsedDocument:
    """Parses one Org file; raises a `DocumentError` subclass for what cannot be read."""
    text = _decode(data)
    if not text.strip():
        raise EmptyDocumentError("the Org file contains only whitespace")
    reader = _Reader()
    for line in io.StringIO(text):
        reader.feed(line.rstrip("\r\n"))
    reader.flush()
    if not reader.blocks:
        if reader.encrypted:
            raise EncryptedDocumentError(
                "the Org file's text is encrypted with org-crypt; decrypt it first"
            )
        raise NoTextError("the Org file has no text outside comments, drawers and keywords")
    title = _inline(reader.keywords.get("title", "")) or PurePath(name).stem or name
    meta = {k: reader.keywords[k] for k in _METADATA if reader.keywords.get(k)}
    return ParsedDocument(title, tuple(reader.blocks), FORMAT, metadata=meta)


def _decode(data: bytes) -> str:
    if not data:
        raise EmptyDocumentError("the file is empty")
    if b"\x00" in data:
        raise CorruptDocumentError("not an Org file: it holds binary data (NUL bytes)")
    first_line = data.split(b"\n", 1)[0]
    coding = _CODING.search(first_line)
    encoding = coding.group(1).decode("ascii") if coding else "utf-8-sig"
    try:
        return data.decode(encoding)
    except LookupError:
        raise CorruptDocumentError(f"the Org file names an unknown coding {encoding!r}") from None
    except UnicodeDecodeError as exc:
        raise CorruptDocumentError(
            f"not an Org file: bytes that are not {encoding} at offset {exc.start}"
        ) from None


def _inline(text: str) -> str:
    """Links as their description, emphasis markers dropped, whitespace collapsed."""
    text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = _MARKUP.sub(r"\1\3", text)
    return _WS.sub(" ", text).strip()


def _headline_title(raw: str) -> str:
    raw = _TAGS.sub("", raw)
    raw = _TODO.sub("", raw, count=1) if _TODO.match(raw) else raw
    return _inline(_PRIORITY.sub("", raw, count=1) if _PRIORITY.match(raw) else raw)


@dataclass
class _Reader:
    """A line-at-a-time reader: what is open (paragraph, list, table, block, drawer)."""

    blocks: list[Block] = field(default_factory=list)
    keywords: dict[str, str] = field(default_factory=dict)
    encrypted: bool = False
    _outline: list[tuple[int, str]] = field(default_factory=list)
    _skip_below: int | None = None  # the level of an open COMMENT subtree
    _para: list[str] = field(default_factory=list)
    _items: list[tuple[int, str, str]] = field(default_factory=list)  # indent, marker, text
    _rows: list[list[str]] = field(default_factory=list)
    _has_header: bool = False
    _block: tuple[str | None, list[str]] | None = None  # (kind or None to drop, lines)
    _in_drawer: bool = False
    _in_pgp: bool = False

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(title for _, title in self._outline if title)

    def feed(self, line: str) -> None:
        stripped = line.strip()
        if self._block is not None:
            self._in_block(line, stripped)
        elif self._in_pgp:
            self._in_pgp = "-----END PGP MESSAGE-----" not in stripped
        elif self._in_drawer:
            self._in_drawer = stripped.upper() != ":END:"
        elif headline := _HEADLINE.fullmatch(line):
            self._headline(len(headline.group(1)), headline.group(2))
        elif self._skip_below is None:
            self._body(line, stripped)

    def _in_block(self, line: str, stripped: str) -> None:
        assert self._block is not None
        kind, lines = self._block
        if not stripped.lower().startswith("#+end_"):
            lines.append(line)
            return
        self._block = None
        body = "\n".join(lines).strip("\n")
        if kind is not None and body.strip():
            text = body if kind == "code" else _inline(body)
            self.blocks.append(Block(text, self.path, kind="code" if kind == "code" else "text"))

    def _headline(self, level: int, raw: str) -> None:
        self.flush()
        if self._skip_below is not None and level > self._skip_below:
            return
        self._skip_below = None
        while self._outline and self._outline[-1][0] >= level:
            self._outline.pop()
        if raw.startswith("COMMENT"):
            self._skip_below = level
            return
        self._outline.append((level, _headline_title(raw)))

    def _body(self, line: str, stripped: str) -> None:
        if stripped == "-----BEGIN PGP MESSAGE-----":
            self.flush()
            self.encrypted = self._in_pgp = True
        elif begin := _BEGIN.match(stripped):
            self.flush()
            self._block = (_CODE_BLOCKS.get(begin.group(1).lower()), [])
        elif keyword := _KEYWORD.fullmatch(stripped):
            self.keywords.setdefault(keyword.group(1).lower(), keyword.group(2).strip())
        elif stripped.startswith("#+") or stripped == "#" or stripped.startswith("# "):
            pass  # other keywords and comments
        elif _DRAWER.fullmatch(stripped) and stripped.upper() != ":END:":
            self.flush()
            self._in_drawer = True
        elif _PLANNING.match(stripped):
            pass
        elif not stripped:
            self.flush()
        elif stripped.startswith("|"):
            self._table_row(stripped)
        elif item := _ITEM.fullmatch(line):
            self._flush_paragraph()
            self._flush_table()
            indent = len(item.group(1).expandtabs(8))
            self._items.append((indent, item.group(2), item.group(3)))
        elif self._items and line[:1].isspace():
            indent, marker, text = self._items[-1]  # a list item's continuation line
            self._items[-1] = (indent, marker, f"{text} {stripped}")
        else:
            self._flush_list()
            self._flush_table()
            self._para.append(stripped)

    def _table_row(self, stripped: str) -> None:
        self._flush_paragraph()
        self._flush_list()
        if _RULE.fullmatch(stripped):
            self._has_header = self._has_header or len(self._rows) == 1
            return
        self._rows.append([_inline(c) for c in stripped.strip("|").split("|")])

    def flush(self) -> None:
        self._flush_paragraph()
        self._flush_list()
        self._flush_table()

    def _flush_paragraph(self) -> None:
        text = _inline(" ".join(self._para))
        self._para = []
        if text:
            self.blocks.append(Block(text, self.path))

    def _flush_list(self) -> None:
        items, self._items = self._items, []
        if not items:
            return
        base = min(indent for indent, _, _ in items)
        lines = [
            f"{'  ' * ((indent - base) // 2)}{'-' if marker in '-+' else marker} "
            + _inline(text.replace(" :: ", ": ", 1))
            for indent, marker, text in items
        ]
        self.blocks.append(Block("\n".join(lines), self.path, kind="list"))

    def _flush_table(self) -> None:
        rows, self._rows = [r for r in self._rows if any(r)], []
        has_header, self._has_header = self._has_header and len(rows) > 1, False
        if not rows:
            return
        if not has_header:
            text = "\n".join(" | ".join(c for c in row if c) for row in rows)
            self.blocks.append(Block(text, self.path, kind="table"))
            return
        header, body = rows[0], rows[1:]
        cells = (zip(header, row, strict=False) for row in body)
        lines = ["; ".join(f"{h}: {v}" if h else v for h, v in row if v) for row in cells]
        text = "\n".join(line for line in lines if line) or " | ".join(header)
        self.blocks.append(Block(text, self.path, kind="table", header=" | ".join(header)))
