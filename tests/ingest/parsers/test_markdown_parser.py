"""Markdown parsing: front matter, headings, code fences, tables, lists, inline markup."""

from __future__ import annotations

from citewise.ingest.parsers import parse_bytes
from citewise.ingest.parsers._md_inline import front_matter, strip_inline
from citewise.types import Block, ParsedDocument

GUIDE = """---
title: "Logging guide"
category: ops
tags: [ops, logs]
owners:
  - Ann
  - Bob
nested:
  key: ignored
---
# Logging

Rotate the **log files** every
night with [logrotate](https://example.com).

## Rotation

```bash
# keep seven files
rotate 7
    compress
```

- item one
  continues here
- item two
  - nested item
1. numbered

| Level | Shown |
|-------|:-----:|
| DEBUG | no |
| `a\\|b` | yes |

Setext Heading
--------------

    indented code
    second line

> quoted advice

***
snake_case_names and *emphasis* stay readable.
"""


def _parse(text: str, name: str = "guide.md") -> ParsedDocument:
    return parse_bytes(text.encode("utf-8"), name)


def test_markdown_front_matter_becomes_metadata() -> None:
    doc = _parse(GUIDE)
    assert doc.title == "Logging guide"
    assert doc.metadata == {
        "title": "Logging guide",
        "category": "ops",
        "tags": "ops, logs",
        "owners": "Ann, Bob",
    }
    assert not any("category" in b.text for b in doc.blocks)


def test_markdown_front_matter_tags_as_plain_list() -> None:
    meta, body = front_matter("---\ntags: a, b\ncategory: 'x'\n---\nBody")
    assert meta == {"tags": "a, b", "category": "x"}
    assert body == "Body"
    assert front_matter("---\nno closing fence\n")[0] == {}


def test_markdown_hash_inside_code_is_not_a_heading() -> None:
    blocks = _parse(GUIDE).blocks
    code = [b for b in blocks if b.kind == "code"]
    assert code[0] == Block(
        "# keep seven files\nrotate 7\n    compress", ("Logging", "Rotation"), None, "code"
    )
    assert code[1] == Block(
        "indented code\nsecond line", ("Logging", "Setext Heading"), None, "code"
    )
    assert not any("keep seven files" in h for b in blocks for h in b.heading_path)


def test_markdown_headings_nest_and_setext_headings_count() -> None:
    paths = {b.text: b.heading_path for b in _parse(GUIDE).blocks}
    assert paths["Rotate the log files every night with logrotate."] == ("Logging",)
    assert paths["quoted advice"] == ("Logging", "Setext Heading")
    assert paths["snake_case_names and emphasis stay readable."] == ("Logging", "Setext Heading")


def test_markdown_lists_and_tables() -> None:
    blocks = _parse(GUIDE).blocks
    lists = [b.text for b in blocks if b.kind == "list"]
    assert lists == ["- item one continues here\n- item two\n  - nested item\n1. numbered"]
    table = next(b for b in blocks if b.kind == "table")
    assert table.header == "Level | Shown"
    assert table.text == "Level: DEBUG; Shown: no\nLevel: a|b; Shown: yes"


def test_markdown_fence_inside_a_list_item_stays_code() -> None:
    text = "1. Install it:\n\n   ```bash\n   pip install pelican\n   ```\n2. Run it.\n"
    got = [(b.kind, b.text) for b in _parse(text).blocks]
    assert got == [
        ("list", "1. Install it:"),
        ("code", "pip install pelican"),
        ("list", "2. Run it."),
    ]


def test_markdown_title_falls_back_to_first_h1_then_stem() -> None:
    assert _parse("Intro text.\n\n# First Heading\n\nMore.").title == "First Heading"
    assert _parse("Just text.", "notes.md").title == "notes"


def test_strip_inline_keeps_code_verbatim() -> None:
    assert strip_inline("Use `a*b*c` and ![logo](x.png) <b>bold</b>") == "Use a*b*c and logo bold"


def test_links_whose_text_is_code_become_their_text() -> None:
    line = "Call [`Buffer.alloc()`][] or [`fs.open()`](fs.md#open), see [docs][ref]."
    assert strip_inline(line) == "Call Buffer.alloc() or fs.open(), see docs."
    assert strip_inline("Index with `a[0](x)` and `[x][]`.") == "Index with a[0](x) and [x][]."


def test_markdown_html_comments_are_left_out() -> None:
    doc = _parse(
        "# API\n\n## `kill([signal])`\n\n<!-- YAML\nadded: v0.1.90\nchanges:\n"
        "  - version: v20.0.0\n    pr-url: https://example.com/1\n-->\n\n"
        "Sends a signal. <!-- inline note --> Default is `'SIGTERM'`.\n"
    )
    text = " ".join(b.text for b in doc.blocks)
    assert text == "Sends a signal. Default is 'SIGTERM'."
    assert doc.blocks[0].heading_path == ("API", "kill([signal])")
