"""Page furniture of documentation generators never reaches the parsed text: one small page of
each generator's shape, the content kept, the furniture gone."""

from __future__ import annotations

import pytest

from citewise.ingest.parsers import parse_bytes

CONTENT = "<p>The default block size is 900 kB.</p>"

DOCBOOK = (  # DocBook / PostgreSQL: a "Prev | Up | Chapter 73 | Home | Next" table
    '<div class="navheader"><table width="100%" summary="Navigation header">'
    '<tr><th colspan="5">Chapter 73. Storage</th></tr><tr><td><a accesskey="p" href="a.html">'
    'Prev</a></td><td><a accesskey="u" href="u.html">Up</a></td><th>Chapter 73. Storage</th>'
    '<td><a accesskey="h" href="i.html">Home</a></td><td><a accesskey="n" href="b.html">Next</a>'
    "</td></tr></table><hr></div>"
    f'<div class="sect1"><h2>73.1. Layout</h2>{CONTENT}</div>'
    '<div class="navfooter"><hr><table summary="Navigation footer"><tr><td><a href="a.html">Prev'
    '</a></td><td><a href="u.html">Up</a></td><td><a href="b.html">Next</a></td></tr><tr><td>'
    "73. Storage</td><td></td><td>73.2. Pages</td></tr></table></div>"
    '<div class="toc"><p><b>Table of Contents</b></p></div>'
)
SPHINX = (
    '<div class="related" role="navigation"><ul><li><a href="genindex.html">index</a></li>'
    '<li><a href="next.html">next</a> |</li><li><a href="prev.html">previous</a> |</li>'
    '<li><a href="index.html">Docs</a> »</li></ul></div>'
    f'<div class="body" role="main"><h1>Layout</h1>{CONTENT}</div>'
    '<div class="footer">© Copyright 2024. Created using Sphinx.</div>'
)
TEXINFO = (
    '<div class="nav-panel"><p>Next: <a href="b.html" accesskey="n" rel="next">Options</a>, '
    'Previous: <a href="a.html" rel="prev">Intro</a>, Up: <a href="u.html" rel="up">Top</a> '
    '&nbsp; [<a href="c.html" rel="contents">Contents</a>]</p></div>'
    f"<h3>2.1 Layout</h3>{CONTENT}"
    '<p>Next: <a href="b.html">Options</a>, Up: <a href="u.html">Top</a></p>'
)
JAVADOC = (
    '<div class="topNav"><ul class="navList"><li><a href="overview.html">Overview</a></li>'
    '<li><a href="package.html">Package</a></li><li>Class</li></ul></div>'
    '<div class="subNav"><ul><li><a href="A.html">Prev Class</a></li><li><a href="C.html">Next '
    "Class</a></li></ul></div>"
    f'<div class="header"><h2 class="title">Class Layout</h2></div><div class="block">{CONTENT}'
    '</div><div class="bottomNav"><ul class="navList"><li><a href="tree.html">Tree</a></li>'
    "</ul></div>"
)
PYDOC = (
    '<table class="heading"><tr><td class="title"><strong>layout</strong></td>'
    '<td class="extra"><a href=".">index</a><br><a href="file:/usr/lib/layout.py">'
    "/usr/lib/layout.py</a></td></tr></table>"
    f"<p><tt>The layout module.</tt></p>{CONTENT}"
)
MKDOCS = (  # MkDocs (Read the Docs theme): breadcrumbs, a pager
    '<div role="main"><ul class="wy-breadcrumbs"><li><a href="index.html">Docs</a> »</li>'
    "<li>Layout</li></ul>"
    '<p><a href="index.html">Docs</a> » <a href="guide.html">Guide</a> » Layout</p>'
    f"<h1>Layout</h1>{CONTENT}"
    '<div class="rst-footer-buttons"><a href="a.html">« Previous</a> '
    '<a href="b.html">Next »</a></div></div>'
)
PLAIN = (
    '<header><a href="/">Example site</a></header><nav><a href="/a">About</a></nav>'
    f"<aside><p>Related reading</p></aside><main><h1>Layout</h1>{CONTENT}</main>"
    "<footer><p>Back to top | Contact</p></footer>"
)
FURNITURE = (
    "prev", "next", "home", "chapter 73", "table of contents", "previous", "overview",
    "/usr/lib/layout.py", "docs »", "guide", "example site", "related reading", "back to top",
    "contents", "up:",
)  # fmt: skip


def _text(body: str) -> str:
    page = f"<html><head><title>Layout</title></head><body>{body}</body></html>"
    return "\n".join(b.text for b in parse_bytes(page.encode(), "page.html").blocks)


@pytest.mark.parametrize(
    "body",
    [DOCBOOK, SPHINX, TEXINFO, JAVADOC, PYDOC, MKDOCS, PLAIN],
    ids=["docbook", "sphinx", "texinfo", "javadoc", "pydoc", "mkdocs", "plain"],
)
def test_generator_furniture_is_left_out_and_content_kept(body: str) -> None:
    text = _text(body)
    assert "The default block size is 900 kB." in text
    left = [word for word in FURNITURE if word in text.lower()]
    assert not left, text


def test_prose_that_mentions_next_or_paths_is_content() -> None:
    body = (
        '<p>Next: we install <a href="pip.html">pip</a> and configure it.</p>'
        '<p>Source code: <a href="x">Lib/asyncio/events.py</a>, <a href="y">Lib/a/b.py</a></p>'
        '<p>Call <a href="#next">next()</a> to advance the iterator.</p>'
        '<p><a href="#help">help</a> - A brief description of what the argument does.</p>'
    )
    text = _text(body)
    assert "Next: we install pip and configure it." in text
    assert "Lib/asyncio/events.py" in text
    assert "Call next() to advance the iterator." in text
    assert "help - A brief description" in text


def test_a_page_that_is_only_a_pager_keeps_its_text() -> None:
    text = _text('<div class="navheader"><p><a href="a.html">Prev</a> | Next</p></div>')
    assert "Prev" in text
