"""Markdown parser: front matter → metadata, ATX and setext headings → heading path,
fenced/indented code → code blocks, pipe tables → table blocks, lists → list blocks; HTML
comments are left out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citewise.ingest.parsers._common import (
    HeadingStack,
    clean_code,
    finish,
    list_block,
    stem,
    table_block,
)
from citewise.ingest.parsers._decode import decode_text
from citewise.ingest.parsers._md_inline import (
    front_matter,
    is_table_delimiter,
    strip_inline,
    table_cells,
)
from citewise.types import Block, ParsedDocument

NO_TEXT = "the Markdown file contains no text"
_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$")
_QUOTE = re.compile(r"^ {0,3}>[ \t]?")
_LINK_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S+")


@dataclass
class _Scanner:
    """Walks the lines once; `out` collects blocks with the heading path of their place."""

    lines: list[str]
    i: int = 0
    stack: HeadingStack = field(default_factory=HeadingStack)
    para: list[str] = field(default_factory=list)
    out: list[Block | None] = field(default_factory=list)
    h1: str = ""

    def flush(self) -> None:
        text = strip_inline(" ".join(self.para))
        self.para = []
        if text:
            self.out.append(Block(text, self.stack.path))

    def heading(self, level: int, raw: str) -> None:
        text = strip_inline(raw)
        if text:
            self.stack.push(level, text)
            if level == 1 and not self.h1:
                self.h1 = text

    def run(self) -> None:
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if not self._block_start(line):
                self.para.append(_QUOTE.sub("", line).strip())
                self.i += 1
        self.flush()

    def _block_start(self, line: str) -> bool:
        """Handles a line that starts (or ends) a block; False if it is paragraph text."""
        if not line.strip() or _QUOTE.sub("", line).strip() == "":
            self.flush()
            self.i += 1
            return True
        if _FENCE.match(line):
            self.flush()
            self._fenced(line)
            return True
        if line.lstrip().startswith("<!--") and "-->" not in line:
            self.flush()
            self._comment()
            return True
        setext = _SETEXT.match(line)
        if setext and self.para:
            raw = " ".join(self.para)
            self.para = []
            self.heading(1 if setext.group(1)[0] == "=" else 2, raw)
            self.i += 1
            return True
        atx = _ATX.match(line)
        if atx or _RULE.match(line) or _LINK_DEF.match(line):
            self.flush()
            if atx:
                self.heading(len(atx.group(1)), atx.group(2) or "")
            self.i += 1
            return True
        following = self.lines[self.i + 1] if self.i + 1 < len(self.lines) else ""
        if "|" in line and is_table_delimiter(following):
            self.flush()
            self._table()
            return True
        if _ITEM.match(line):
            self.flush()
            self._list()
            return True
        if not self.para and (line.startswith("    ") or line.startswith("\t")):
            self._indented_code()
            return True
        return False

    def _fenced(self, opening: str) -> None:
        match = _FENCE.match(opening)
        assert match is not None
        indent, fence = len(match.group(1)), match.group(2)
        body: list[str] = []
        self.i += 1
        while self.i < len(self.lines):
            line = self.lines[self.i]
            self.i += 1
            if line.strip().startswith(fence[0] * len(fence)) and not line.strip(fence[0]).strip():
                break
            body.append(line[indent:] if line[:indent].strip() == "" else line)
        self._code("\n".join(body))

    def _comment(self) -> None:
        """Skips an HTML comment that spans lines (metadata such as `<!-- YAML … -->`)."""
        self.i += 1
        while self.i < len(self.lines) and "-->" not in self.lines[self.i]:
            self.i += 1
        self.i += 1

    def _indented_code(self) -> None:
        body: list[str] = []
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if line.strip() and not line.startswith(("    ", "\t")):
                break
            body.append(line[4:] if line.startswith("    ") else line[1:])
            self.i += 1
        self._code("\n".join(body))

    def _code(self, text: str) -> None:
        code = clean_code(text)
        if code:
            self.out.append(Block(code, self.stack.path, None, "code"))

    def _table(self) -> None:
        rows = [table_cells(self.lines[self.i])]
        self.i += 2  # header and delimiter rows
        while self.i < len(self.lines) and "|" in self.lines[self.i] and self.lines[self.i].strip():
            rows.append(table_cells(self.lines[self.i]))
            self.i += 1
        self.out.append(table_block(rows, self.stack.path))

    def _list(self) -> None:
        items: list[tuple[int, str]] = []
        markers: list[str] = []
        indents: list[int] = []
        texts: list[list[str]] = []
        while self.i < len(self.lines):
            line = self.lines[self.i]
            item = _ITEM.match(line)
            if item and not _RULE.match(line):
                width = len(item.group(1).expandtabs(4))
                while indents and indents[-1] > width:
                    indents.pop()
                if not indents or indents[-1] < width:
                    indents.append(width)
                items.append((len(indents) - 1, ""))
                marker = item.group(2)
                markers.append("-" if marker in "-*+" else marker.rstrip(")").rstrip(".") + ".")
                texts.append([item.group(3) or ""])
            elif not line.strip():
                following = self._next_nonblank()
                if not following or not (following[0] in " \t" or _ITEM.match(following)):
                    break
            elif _FENCE.match(line):  # code inside an item: the list pauses for it
                break
            elif line.startswith((" ", "\t")) or not self._starts_other_block(line):
                texts[-1].append(line.strip())
            else:
                break
            self.i += 1
        rendered = [
            (depth, strip_inline(" ".join(t))) for (depth, _), t in zip(items, texts, strict=True)
        ]
        self.out.append(list_block(rendered, self.stack.path, markers=markers))

    def _next_nonblank(self) -> str | None:
        for line in self.lines[self.i + 1 :]:
            if line.strip():
                return line
        return None

    def _starts_other_block(self, line: str) -> bool:
        return any(p.match(line) for p in (_ATX, _FENCE, _RULE, _QUOTE))


def markdown_blocks(body: str) -> tuple[list[Block], str]:
    """The blocks of a Markdown body (no front matter) and its first level-1 heading."""
    scanner = _Scanner(body.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    scanner.run()
    return [b for b in scanner.out if b is not None], scanner.h1


def parse_markdown(data: bytes, name: str) -> ParsedDocument:
    meta, body = front_matter(decode_text(data, name).lstrip("\ufeff").replace("\r\n", "\n"))
    blocks, h1 = markdown_blocks(body)
    return finish(
        title=meta.get("title") or h1 or stem(name),
        blocks=blocks,
        fmt="markdown",
        no_text=NO_TEXT,
        metadata=meta,
    )
