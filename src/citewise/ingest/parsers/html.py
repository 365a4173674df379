"""HTML parser: the main content of a page (navigation, sidebars, footers and the page
furniture of documentation generators dropped, see citewise.ingest.boilerplate) as
paragraphs, lists, code and tables under the h1–h6 heading path; Sphinx API entries
(`<dl><dt id=…>`) extend the path for the blocks of their definition.

The tree comes from lxml's HTML parser directly: BeautifulSoup on the same lxml parser
spent ~36 s building trees for the 530-page dev corpus alone, lxml ~1.5 s (bs4 still
reads the declared encoding of non-UTF-8 pages).
"""

from __future__ import annotations

import re

import lxml.etree

from citewise.errors import CorruptDocumentError, NoTextError
from citewise.ingest.boilerplate import boilerplate_elements, remove_keeping_tail
from citewise.ingest.parsers._common import HeadingStack, clean, clean_code, finish, stem
from citewise.ingest.parsers._common import list_block as make_list_block
from citewise.ingest.parsers._common import table_block as make_table_block
from citewise.ingest.parsers._html_text import (
    HEADINGS,
    Element,
    decode_html,
    inline_text,
    is_noise,
    is_permalink,
    main_content,
    page_title,
    table_rows,
)
from citewise.types import Block, ParsedDocument

NO_TEXT = (
    "the HTML page contains no text in its main content"
    " (navigation, tables of contents and link indexes are left out)"
)
LISTS = frozenset({"ul", "ol"})
# fmt: off
_FLOW = frozenset({
    "p", "div", "section", "article", "main", "aside", "header", "blockquote", "figure",
    "figcaption", "address", "details", "summary", "center", "fieldset", "dialog", "hgroup",
    "li", "dd", "dt", "body", "html"
})
# fmt: on
_LABEL = re.compile(r"\[?[\w*†‡§]{1,4}\]?")
_COMPLEX = ("pre", "table", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote")


class _Walker:
    """One pass over the content tree; inline text accumulates in `buf` until a block
    boundary flushes it as a paragraph."""

    def __init__(self) -> None:
        self.stack = HeadingStack()
        self.prefix: tuple[str, ...] = ()  # Sphinx definition terms we are inside
        self.buf: list[str] = []
        self.lead = ""  # a label ("Note:", a term) that opens the next paragraph
        self.blocks: list[Block | None] = []
        self.first_h1 = ""

    @property
    def path(self) -> tuple[str, ...]:
        return self.stack.path + self.prefix

    def flush(self) -> None:
        text = clean("".join(self.buf))
        self.buf = []
        if text:
            self.blocks.append(Block(f"{self.lead} {text}".strip(), self.path))
            self.lead = ""

    def flush_label(self) -> None:
        """Before a nested block: a footnote label ('[1]') opens that block's first
        paragraph instead of standing alone."""
        pending = clean("".join(self.buf))
        if pending and not self.lead and _LABEL.fullmatch(pending):
            self.buf, self.lead = [], pending
        else:
            self.flush()

    def flush_lead(self) -> None:
        """A label with nothing after it still counts as text."""
        self.flush()
        if self.lead:
            self.blocks.append(Block(self.lead, self.path))
            self.lead = ""

    def walk(self, el: Element) -> None:
        if el.text:
            self.buf.append(el.text)
        for child in el:
            tag = child.tag
            if isinstance(tag, str) and not is_noise(child, tag) and not is_permalink(child):
                self.element(child, tag)
            if child.tail:
                self.buf.append(child.tail)

    def element(self, el: Element, tag: str) -> None:
        if tag in HEADINGS:
            self.flush_lead()
            text = inline_text(el)
            if text:
                self.stack.push(HEADINGS[tag], text)
                self.first_h1 = self.first_h1 or (text if tag == "h1" else "")
        elif tag == "pre":
            self.flush_lead()
            code = clean_code("".join(el.itertext()))
            if code:
                self.blocks.append(Block(code, self.path, None, "code"))
        elif tag in LISTS:
            self.flush_lead()
            self.list_(el)
        elif tag == "table":
            self.flush_lead()
            self.table(el)
        elif tag == "dl":
            self.flush_lead()
            self.definitions(el)
        elif tag == "br":
            self.buf.append(" ")
        elif tag == "p" and "admonition-title" in (el.get("class") or ""):
            self.flush_lead()
            self.lead = f"{inline_text(el)}:"  # "Note: …" joins its first paragraph
        elif tag in _FLOW or tag == "hr":
            self.flush_label()
            self.walk(el)
            self.flush()
        else:  # inline markup
            self.walk(el)

    def list_(self, el: Element) -> None:
        """A list of plain items is one list block; items holding code, tables or
        definitions are walked as content so those keep their own blocks."""
        items = [li for li in el if li.tag == "li"]
        if any(li.find(f".//{tag}") is not None for li in items for tag in _COMPLEX):
            for li in items:
                self.flush()
                self.walk(li)
                self.flush()
            return
        lines: list[tuple[int, str]] = []
        markers: list[str] = []
        _list_items(el, 0, lines, markers)
        self.blocks.append(make_list_block(lines, self.path, markers=markers))

    def table(self, el: Element) -> None:
        caption = el.find("caption")
        if caption is not None and inline_text(caption):
            self.blocks.append(Block(inline_text(caption), self.path))
        rows = list(table_rows(el))
        heads = [cells for head, cells in rows if head]
        while heads and len(set(heads[0])) == 1 and len(heads[0]) > 1:  # a spanning title row
            self.blocks.append(Block(heads.pop(0)[0], self.path))
        data = [cells for head, cells in rows if not head]
        has_header = bool(heads) or not any(head for head, _ in rows)
        self.blocks.append(make_table_block(heads + data, self.path, has_header=has_header))

    def definitions(self, dl: Element) -> None:
        terms: list[Element] = []
        for child in dl:
            if child.tag == "dt":
                terms.append(child)
            elif child.tag == "dd":
                self.definition(terms, child)
                terms = []
            elif child.tag == "div":  # HTML5 allows <div> groups inside <dl>
                self.definitions(child)
        if terms:
            self.blocks.append(Block(", ".join(inline_text(t) for t in terms), self.path))

    def definition(self, terms: list[Element], dd: Element) -> None:
        texts = [inline_text(t) for t in terms]
        anchored = [text for t, text in zip(terms, texts, strict=True) if t.get("id") and text]
        if anchored:  # an API entry: its signature becomes a sub-heading
            saved = self.prefix
            self.prefix = (*saved, anchored[0])
            for extra in (t for t in texts if t and t != anchored[0]):
                self.blocks.append(Block(extra, self.path))
            self.walk(dd)
            self.flush_lead()
            self.prefix = saved
            return
        term = ", ".join(t for t in texts if t)
        if any(dd.find(f".//{tag}") is not None for tag in (*_COMPLEX, "ul", "ol")):
            self.flush_lead()
            self.lead = f"{term.rstrip(':')}:" if term else ""
            self.walk(dd)
            self.flush_lead()
        else:
            body = inline_text(dd)
            text = f"{term.rstrip(':')}: {body}" if term and body else term or body
            if text:
                self.blocks.append(Block(text, self.path))


def _list_items(el: Element, depth: int, out: list[tuple[int, str]], markers: list[str]) -> None:
    start = el.get("start") or "1"
    number = int(start) if start.isdigit() else 1
    for li in el:
        if li.tag != "li":
            continue
        out.append((depth, inline_text(li, skip=LISTS)))
        markers.append(f"{number}." if el.tag == "ol" else "-")
        number += 1
        for nested in li.iter("ul", "ol"):
            if _direct_list(nested, li):
                _list_items(nested, depth + 1, out, markers)


def _direct_list(nested: Element, li: Element) -> bool:
    """Whether `nested` is a list inside `li` that is not inside a deeper list."""
    parent = nested.getparent()
    while parent is not None and parent is not li:
        if parent.tag in LISTS:
            return False
        parent = parent.getparent()
    return parent is li


def parse_html(data: bytes, name: str) -> ParsedDocument:
    text = decode_html(data, name)
    try:
        return _parse(text, drop_boilerplate=True, name=name)
    except NoTextError:
        # dropping page furniture must never empty a page: keep its text then
        return _parse(text, drop_boilerplate=False, name=name)


def _parse(text: str, *, drop_boilerplate: bool, name: str) -> ParsedDocument:
    try:
        # a parser per call: lxml parser objects must not be shared between threads
        parser = lxml.etree.HTMLParser(remove_comments=True, remove_pis=True)
        root = lxml.etree.fromstring(text, parser)
    except (lxml.etree.ParserError, lxml.etree.XMLSyntaxError, ValueError) as exc:
        raise CorruptDocumentError(f"the HTML cannot be parsed ({exc})") from exc
    if root is None:
        raise NoTextError(NO_TEXT)
    content = main_content(root)
    if drop_boilerplate:
        for element in boilerplate_elements(content):
            remove_keeping_tail(element)
    walker = _Walker()
    walker.walk(content)
    walker.flush_lead()
    return finish(
        title=page_title(root) or walker.first_h1 or stem(name),
        blocks=walker.blocks,
        fmt="html",
        no_text=NO_TEXT,
    )
