"""Markdown helpers that work on single lines: inline markup removal, front matter, and
pipe-table rows (pure functions)."""

from __future__ import annotations

import re

from citewise.ingest.parsers._common import clean

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
# a code span (left alone) or a link or image whose text may hold code spans:
# [`fs.open()`](url), [`Buffer`][ref], [`Buffer`][], ![alt](src)
_LINK = re.compile(r"(`+).+?\1|!?\[((?:`[^`]*`|[^\]`])*)\](?:\([^)]*\)|\[[^\]]*\])", re.S)
_INLINE_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"<!--.*?-->", re.S), ""),  # HTML comment
    (re.compile(r"<((?:https?|mailto):[^>\s]+)>"), r"\1"),  # <https://autolink>
    (re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>"), ""),  # inline HTML tags
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),  # strong
    (re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])"), r"\1"),  # *em*
    (re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])"), r"\1"),  # _em_
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~"), r"\1"),  # ~~strike~~
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])"), r"\1"),  # backslash escapes
)
_FRONT_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")
_FRONT_ITEM = re.compile(r"^\s+-\s+(.*)$")
_TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")


def strip_inline(text: str) -> str:
    """Readable text from one line of Markdown: code spans keep their content verbatim,
    links and images become their text, emphasis markers, comments and inline HTML go."""
    text = _LINK.sub(lambda m: m.group(0) if m.group(1) else m.group(2), text)
    parts = _CODE_SPAN.split(text)
    out: list[str] = []
    # split() with two groups yields: text, ticks, code, text, ticks, code, …
    for i in range(0, len(parts), 3):
        chunk = parts[i]
        for pattern, replacement in _INLINE_RULES:
            chunk = pattern.sub(replacement, chunk)
        out.append(chunk)
        if i + 2 < len(parts):
            out.append(parts[i + 2].strip())
    return clean("".join(out))


def _scalar(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _join_list(value: str) -> str:
    inner = value.strip()
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1]
    return ", ".join(_scalar(v) for v in inner.split(",") if _scalar(v))


def front_matter(text: str) -> tuple[dict[str, str], str]:
    """Splits a leading '---' block of `key: value` lines off the text. Lists (`[a, b]`,
    `a, b` for tags, or '- item' lines) become comma-joined strings; nested maps are skipped."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, text
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        return {}, text
    meta: dict[str, str] = {}
    key = ""
    for line in lines[1:end]:
        item = _FRONT_ITEM.match(line)
        if item and key:
            joined = meta.get(key, "")
            meta[key] = f"{joined}, {_scalar(item.group(1))}" if joined else _scalar(item.group(1))
            continue
        match = _FRONT_KEY.match(line)
        if not match:
            continue
        key, value = match.group(1).lower(), match.group(2).strip()
        if value.startswith("[") or key in ("tags", "keywords"):
            meta[key] = _join_list(value)
        elif value and not value.startswith(("{", "|", ">")):
            meta[key] = _scalar(value)
    return {k: v for k, v in meta.items() if v}, "\n".join(lines[end + 1 :])


def is_table_delimiter(line: str) -> bool:
    return "-" in line and bool(_TABLE_DELIMITER.match(line))


def table_cells(line: str) -> list[str]:
    """Cells of one pipe-table row; escaped pipes stay inside their cell."""
    row = line.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    cells = re.split(r"(?<!\\)\|", row)
    return [strip_inline(c.replace("\\|", "|")) for c in cells]
