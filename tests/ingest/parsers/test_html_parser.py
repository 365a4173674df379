"""HTML parsing: boilerplate removal, headings, Sphinx API entries, tables, real pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.errors import NoTextError
from citewise.ingest.parsers import parse_bytes
from citewise.types import Block

PYDOCS = Path("/usr/share/doc/python3.11/html")

PAGE = """<!DOCTYPE html>
<html><head><title>Install guide — Pelican Docs</title><style>p {color: red}</style>
<script>var tracking = "SCRIPT TEXT";</script></head>
<body>
<header><a href="/">Pelican Docs home</a></header>
<nav><ul><li><a href="/a">Nav link one</a></li><li><a href="/b">Nav link two</a></li></ul></nav>
<div class="sphinxsidebar" role="navigation"><h3>Sidebar heading</h3><p>Sidebar text</p></div>
<div class="related"><a href="next.html">next page</a></div>
<div class="body" role="main">
  <h1>Install<a class="headerlink" href="#install" title="Permalink">¶</a></h1>
  <p>Install the   package
     with pip.</p>
  <div class="highlight"><pre><span class="n">pip</span> install pelican
pelican --version
    indented line</pre></div>
  <h2>Options</h2>
  <ul><li>fast <b>mode</b></li><li>safe mode<ul><li>nested item</li></ul></li></ul>
  <table><thead><tr><th>Flag</th><th>Meaning</th></tr></thead>
    <tbody><tr><td>-q</td><td>quiet</td></tr><tr><td>-v</td><td>verbose</td></tr></tbody></table>
  <div class="admonition note"><p class="admonition-title">Note</p><p>Needs Python 3.11.</p></div>
  <form><input name="q"><button>Search</button></form>
</div>
<footer>Copyright 2024 Footer text</footer>
</body></html>
"""

SPHINX_API = """<html><head><title>Built-in Functions — Python 3.11 documentation</title></head>
<body><div class="body" role="main"><section id="built-in-functions">
<h1>Built-in Functions<a class="headerlink" href="#built-in-functions">¶</a></h1>
<p>The interpreter has functions built in.</p>
<dl class="py function">
<dt class="sig sig-object py" id="round"><span class="sig-name descname">round</span>\
<span class="sig-paren">(</span><em class="sig-param">number</em>, \
<em class="sig-param">ndigits=None</em><span class="sig-paren">)</span>\
<a class="headerlink" href="#round">¶</a></dt>
<dd><p>Return <em>number</em> rounded to <em>ndigits</em> precision.</p>
<dl class="field-list simple"><dt class="field-odd">Parameters<span class="colon">:</span></dt>
<dd class="field-odd"><p>number – the value</p></dd></dl>
<dl class="py method"><dt class="sig sig-object py" id="round.inner">inner()</dt>
<dd><p>A nested entry.</p></dd></dl>
</dd></dl>
<p>Back at the section level.</p>
</section></div></body></html>
"""


def _blocks(html: str, name: str = "page.html") -> tuple[Block, ...]:
    return parse_bytes(html.encode("utf-8"), name).blocks


def test_html_drops_nav_and_keeps_code_lines() -> None:
    doc = parse_bytes(PAGE.encode("utf-8"), "install.html")
    text = "\n".join(b.text for b in doc.blocks)
    for noise in ("Nav link", "Sidebar", "next page", "Footer text", "SCRIPT", "Search", "home"):
        assert noise not in text
    assert "¶" not in text
    code = [b for b in doc.blocks if b.kind == "code"]
    assert [b.text for b in code] == ["pip install pelican\npelican --version\n    indented line"]
    assert code[0].heading_path == ("Install",)
    assert doc.blocks[0] == Block("Install the package with pip.", ("Install",))


def test_html_lists_tables_and_admonitions_become_blocks() -> None:
    blocks = {b.kind: b for b in _blocks(PAGE)}
    assert blocks["list"].text == "- fast mode\n- safe mode\n  - nested item"
    assert blocks["list"].heading_path == ("Install", "Options")
    assert blocks["table"].header == "Flag | Meaning"
    assert blocks["table"].text == "Flag: -q; Meaning: quiet\nFlag: -v; Meaning: verbose"
    assert Block("Note: Needs Python 3.11.", ("Install", "Options")) in _blocks(PAGE)


def test_html_title_drops_the_site_suffix() -> None:
    assert parse_bytes(PAGE.encode(), "x.html").title == "Install guide"
    untitled = "<html><body><main><h1>Only heading</h1><p>Body.</p></main></body></html>"
    assert parse_bytes(untitled.encode(), "x.html").title == "Only heading"
    assert parse_bytes(b"<p>bare</p>", "notes.htm").title == "notes"


def test_sphinx_definition_term_extends_heading_path() -> None:
    paths = {b.text: b.heading_path for b in _blocks(SPHINX_API)}
    entry = ("Built-in Functions", "round(number, ndigits=None)")
    assert paths["Return number rounded to ndigits precision."] == entry
    assert paths["Parameters: number – the value"] == entry
    assert paths["A nested entry."] == (*entry, "inner()")
    assert paths["Back at the section level."] == ("Built-in Functions",)


def test_plain_definition_lists_become_term_and_definition() -> None:
    html = "<main><h1>Glossary</h1><dl><dt>Pouch</dt><dd>A throat sack.</dd></dl></main>"
    assert _blocks(html) == (Block("Pouch: A throat sack.", ("Glossary",)),)


def test_main_container_wins_over_page_chrome() -> None:
    html = (
        "<html><body><div>Site banner words</div><article><h2>Story</h2><p>The news.</p>"
        "</article><div>More chrome</div></body></html>"
    )
    assert _blocks(html) == (Block("The news.", ("Story",)),)


def test_declared_legacy_charset_is_honoured() -> None:
    html = '<html><head><meta charset="windows-1252"></head><body><p>Caf\xe9 cr\xe8me</p></body>'
    assert parse_bytes(html.encode("cp1252"), "menu.html").blocks[0].text == "Café crème"


def test_html_without_content_has_no_text() -> None:
    with pytest.raises(NoTextError):
        parse_bytes(b"<html><body><nav>only navigation</nav></body></html>", "nav.html")


TOC = (
    '<div class="toctree-wrapper compound"><ul><li><a href="a.html">Alpha module</a></li>'
    '<li><a href="b.html">Beta module</a><ul><li><a href="b.html#x">Beta details</a></li>'
    "</ul></li></ul></div>"
)


def test_texinfo_page_headers_are_left_out() -> None:
    header = (
        '<div class="header"><p>Next: <a href="b.html" rel="next">Simple Example</a>, Up: '
        '<a href="u.html" rel="up">Using libffi</a> &nbsp; [<a href="i.html" rel="index">Index'
        "</a>]</p></div>"
    )
    footer = '<div class="header"><p>Next: <a href="b.html">Simple</a> [<a rel="index">Index</a>]'
    html = (
        f'<div class="section">{header}<h3>2.1 The Basics</h3><p>Call ffi_prep_cif first.</p>'
        f'{footer}</p></div><div class="header"><p>The <a href="x">header</a> of a table, '
        "described in words that are not links.</p></div>"
    )
    assert _blocks(html) == (
        Block("Call ffi_prep_cif first.", ("2.1 The Basics",)),
        Block("The header of a table, described in words that are not links.", ("2.1 The Basics",)),
    )


def test_tables_of_contents_and_link_indexes_are_left_out() -> None:
    html = (
        f'<div class="body"><h1>Library</h1><p>Intro words here.</p>{TOC}'
        '<table class="indextable"><tr><td><a href="x.html">x()</a></td></tr></table>'
        '<div class="toctree-wrapper"><p>A chapter told in words, not <a href="l">links</a>.</p>'
        "</div></div>"
    )
    assert _blocks(html) == (
        Block("Intro words here.", ("Library",)),
        Block("A chapter told in words, not links.", ("Library",)),
    )
    with pytest.raises(NoTextError, match="tables of contents"):
        parse_bytes(f'<div class="body"><h1>Contents</h1>{TOC}</div>'.encode(), "contents.html")


def _real_pages() -> list[Path]:
    if not PYDOCS.is_dir():
        pytest.skip(f"{PYDOCS} is not installed")
    pages = sorted(PYDOCS.rglob("*.html"))
    picked = [PYDOCS / "library/functions.html", PYDOCS / "howto/logging.html"]
    return picked + pages[:: max(1, len(pages) // 28)][:28]


@pytest.mark.slow
def test_real_sphinx_pages_parse_with_sensible_paths() -> None:
    pages = _real_pages()
    docs = {}
    for p in pages:
        name = p.relative_to(PYDOCS).as_posix()
        try:
            docs[name] = parse_bytes(p.read_bytes(), p.name)
        except NoTextError:  # only the link indexes are nothing but links
            assert name.startswith("genindex") or name == "contents.html", name
    functions = docs["library/functions.html"]
    assert functions.title == "Built-in Functions"
    round_blocks = [b for b in functions.blocks if any("round" in h for h in b.heading_path)]
    assert any("rounded to ndigits precision" in b.text for b in round_blocks)
    logging = docs["howto/logging.html"]
    assert any(b.kind == "code" and "\n" in b.text for b in logging.blocks)
    for name, doc in docs.items():
        text = "\n".join(b.text for b in doc.blocks)
        assert "Previous topic" not in text and "Report a Bug" not in text, name
        assert "¶" not in text, name
        assert all(b.heading_path for b in doc.blocks[1:]), name
