"""Markdown pages of a static site (front matter, Liquid tags, links, lists, tables) as the
builders' `Item`s, and files read from a repository snapshot (a bare git directory or a
checkout). The wording of each paragraph is kept; only markup goes: links keep their text,
emphasis and code marks are dropped, each list item and table row becomes a paragraph."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from _writers import Item, squash
from _writers import read_source as read_bytes

_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
_TITLE = re.compile(r"^title:\s*[\"']?(.*?)[\"']?\s*$", re.M)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_SLACK = re.compile(r"\{%\s*slack_channel\s+\"#?([^\"]+)\"\s*%\}")
_LIQUID = re.compile(r"\{%.*?%\}", re.S)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_AUTOLINK = re.compile(r"<(https?://[^>]+|[^@>\s]+@[^>\s]+)>")
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
_STRONG = re.compile(r"(\*\*|__)(.+?)\1")
_EMPHASIS = re.compile(r"(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])")
_CODE = re.compile(r"`([^`]*)`")
_ESCAPE = re.compile(r"\\([-*_\[\]()=+#.!\\&`])")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^(\s*)(?:[*+-]|\d+[.)])\s+(.*)$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")


def read_source(root: Path, path: str) -> str:
    """A file of a repository snapshot as text (`_writers.read_source`)."""
    return read_bytes(root, path).decode("utf-8")


def page_title(text: str) -> str:
    front = _FRONT_MATTER.match(text)
    found = _TITLE.search(front.group(1)) if front else None
    return found.group(1) if found else ""


def inline(text: str) -> str:
    """One line of Markdown as plain text."""
    text = _SLACK.sub(r"#\1", text)
    text = _LIQUID.sub("", text)
    text = _IMAGE.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(r"\2", text)
    text = _CODE.sub(r"\1", text)
    text = _ESCAPE.sub(r"\1", text)
    return squash(without_pictographs(text))


def without_pictographs(text: str) -> str:
    """Emoji and other pictographs dropped (the PDF fonts have no glyphs for them)."""
    kept = (c for c in text if unicodedata.category(c) != "So" and c not in "\ufe0f\u200d")
    return "".join(kept)


def markdown_items(text: str, *, title_level: str = "h1") -> list[Item]:
    """A page's title (from its front matter) and body as items: `#`/`##` headings one level
    below the title, deeper headings the level below that."""
    title = page_title(text)
    body = _COMMENT.sub("", _FRONT_MATTER.sub("", text, count=1))
    body = re.sub(r"\{%\s*(end)?alert[^%]*%\}", "\n", body)
    levels = ["h1", "h2", "h3"]
    top = levels.index(title_level)
    items: list[Item] = [(title_level, inline(title))] if title else []
    paragraph: list[str] = []
    fence: list[str] | None = None

    def flush() -> None:
        text = inline(" ".join(paragraph))
        if text:
            items.append(("p", text))
        paragraph.clear()

    for line in body.split("\n"):
        if fence is not None:
            if line.strip().startswith("```"):
                items.append(("pre", "\n".join(fence)))
                fence = None
            else:
                fence.append(line)
            continue
        if line.strip().startswith("```"):
            flush()
            fence = []
            continue
        heading = _HEADING.match(line)
        item = _LIST_ITEM.match(line)
        if not line.strip():
            flush()
        elif heading:
            flush()
            depth = 0 if len(heading.group(1)) <= 2 else 1
            items.append((levels[min(top + 1 + depth, 2)], inline(heading.group(2))))
        elif line.lstrip().startswith("|"):
            flush()
            if not _TABLE_RULE.match(line):
                cells = [inline(c) for c in line.strip().strip("|").split("|")]
                paragraph.append(" | ".join(c for c in cells if c))
                flush()
        elif item:
            flush()
            paragraph.append(item.group(2))
        elif line.lstrip().startswith(">"):
            paragraph.append(line.lstrip()[1:])
        else:
            paragraph.append(line)
    flush()
    return items
