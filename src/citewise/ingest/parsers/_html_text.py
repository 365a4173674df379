"""HTML helpers on lxml elements: decoding, boilerplate detection, main-content choice,
inline text collection, table rows and the page title."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from bs4.dammit import EncodingDetector

from citewise.ingest.parsers._common import clean
from citewise.ingest.parsers._decode import bom_encoding, decode_text

Element = Any  # lxml.etree._Element; lxml ships no type information

HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# fmt: off
DROP_TAGS = frozenset({
    "script", "style", "noscript", "nav", "header", "footer", "aside", "form", "template",
    "button", "input", "select", "textarea", "svg", "canvas", "iframe", "object", "embed",
    "img", "video", "audio", "map", "head", "title", "meta", "link"
})
# fmt: on
# block-level tags: text on either side of them belongs to different paragraphs
# fmt: off
BREAKING = frozenset({
    "address", "article", "blockquote", "br", "caption", "dd", "details", "dialog", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li",
    "main", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th",
    "thead", "tr", "ul", "center", "aside", "header", "body", "html"
})
# fmt: on
NOISE_ROLES = frozenset({"navigation", "search", "banner", "contentinfo", "complementary"})
_NOISE_WORDS = ("sidebar", "breadcrumb", "navbar", "navigation", "footer", "related")
_NOISE_PARTS = frozenset({"nav", "menu", "skiplink", "cookie", "cookies"})
# tables of contents and back-of-book indexes (Sphinx: toctree-wrapper, indextable): only
# links to the content, so they are left out when mostly links
_TOC_CLASSES = frozenset(
    {"toc", "contents", "table-of-contents", "toctree", "toctree-wrapper", "indextable"}
)
# fmt: off
_NOISE_IDS = frozenset({
    "sidebar", "navigation", "nav", "navbar", "menu", "footer", "breadcrumbs", "breadcrumb",
    "toc", "related"
})
# fmt: on
_PAGER_RELS = frozenset({"next", "prev", "previous", "up", "contents", "index"})
_ID_CHECKED = frozenset({"div", "ul", "ol", "table", "p"})  # sections carry heading ids
_PERMALINK_TEXT = frozenset({"¶", "#", "§", "🔗", ""})
_PERMALINK_CLASS = re.compile(r"headerlink|permalink|anchor-?link", re.I)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
_TITLE_SEPARATORS = (" — ", " | ")
_MAIN_XPATHS = (
    "//main",
    "//*[@role='main']",
    "//article",
    "//div[contains(concat(' ', normalize-space(@class), ' '), ' body ')]",
    "//div[contains(concat(' ', normalize-space(@class), ' '), ' document ')]",
)


def decode_html(data: bytes, name: str) -> str:
    """BOM, then UTF-8, then the encoding the page declares, then detection."""
    if bom_encoding(data) is None:
        try:
            return _XML_DECL.sub("", data.decode("utf-8"))
        except UnicodeDecodeError:
            declared = EncodingDetector.find_declared_encoding(data[:4096], is_html=True)
            if declared:
                try:
                    return _XML_DECL.sub("", data.decode(declared))
                except (LookupError, UnicodeDecodeError):
                    pass
    return _XML_DECL.sub("", decode_text(data, name))


@lru_cache(maxsize=4096)
def class_verdict(classes: str) -> str:
    """'noise' for navigation/sidebar/footer classes, 'toc' for a table-of-contents class
    (noise only when it is mostly links), '' otherwise. Cached: pages repeat classes."""
    tokens = classes.lower().split()
    parts = {p for token in tokens for p in (token, *re.split(r"[-_]", token))}
    if parts & _NOISE_PARTS or any(w in p for p in parts for w in _NOISE_WORDS):
        return "noise"
    return "toc" if _TOC_CLASSES.intersection(tokens) else ""


def text_of(el: Element) -> str:
    """All text inside an element (comments excluded)."""
    return "".join(el.itertext(with_tail=False))


def _link_dense(el: Element, share: float = 0.7) -> bool:
    total = len(clean(text_of(el)))
    linked = sum(len(clean(text_of(a))) for a in el.iter("a"))
    return total > 0 and linked >= share * total


def _pager(el: Element) -> bool:
    """A page header of links to the next, previous and parent pages, as Texinfo writes it:
    <div class="header"><p>Next: <a rel="next">…</a>, Up: <a rel="up">…</a> [Contents]…"""
    if any(True for _ in el.iter(*HEADINGS)):
        return False
    rels = {(a.get("rel") or "").lower() for a in el.iter("a")}
    return bool(rels & _PAGER_RELS) and _link_dense(el, 0.5)


def is_noise(el: Element, tag: str) -> bool:
    """Navigation, sidebars, footers, forms, scripts: everything that is not content."""
    if tag in DROP_TAGS:
        if tag == "aside" and "footnote" in (el.get("class") or ""):
            return False  # Sphinx/docutils footnotes are content
        return not (tag == "header" and any(el.iter("h1", "h2", "h3", "h4", "h5", "h6")))
    if el.get("hidden") is not None or el.get("role") in NOISE_ROLES:
        return True
    if tag in _ID_CHECKED and (el.get("id") or "").lower() in _NOISE_IDS:
        return True
    classes = el.get("class")
    if not classes:
        return False
    if "header" in classes.lower().split() and _pager(el):
        return True
    verdict = class_verdict(classes)
    return verdict == "noise" or (verdict == "toc" and _link_dense(el))


def is_permalink(el: Element) -> bool:
    """Sphinx-style '¶' anchors next to headings and definitions."""
    if el.tag != "a":
        return False
    if _PERMALINK_CLASS.search(el.get("class") or ""):
        return True
    href = el.get("href") or ""
    return href.startswith("#") and clean(text_of(el)) in _PERMALINK_TEXT - {""}


def main_content(root: Element) -> Element:
    """The page's main content container, else its body, else the root."""
    for xpath in _MAIN_XPATHS:
        found = root.xpath(xpath)
        if len(found) == 1 or (found and xpath != "//article"):
            return found[0]
    body = root.find("body")
    return body if body is not None else root


def collect(el: Element, out: list[str], skip: frozenset[str] = frozenset()) -> None:
    """Appends el's visible text (not its tail) to `out`, spacing block boundaries and
    leaving out boilerplate, permalinks and the tags in `skip`."""
    if el.text:
        out.append(el.text)
    for child in el:
        tag = child.tag
        visible = isinstance(tag, str) and tag not in skip and not is_permalink(child)
        if visible and not is_noise(child, tag):
            breaking = tag in BREAKING
            if breaking:
                out.append(" ")
            collect(child, out, skip)
            if breaking:
                out.append(" ")
        if child.tail:
            out.append(child.tail)


def inline_text(el: Element, skip: frozenset[str] = frozenset()) -> str:
    out: list[str] = []
    collect(el, out, skip)
    return clean("".join(out).replace("¶", ""))


def table_rows(table: Element) -> Iterator[tuple[bool, list[str]]]:
    """(is_header_row, cell texts) for the rows of this table, not of nested tables;
    a cell spanning columns is repeated in a header row and padded in a data row."""
    for child in table:
        section = child.tag if isinstance(child.tag, str) else ""
        rows = [child] if section == "tr" else [r for r in child if r.tag == "tr"]
        if section not in ("tr", "thead", "tbody", "tfoot"):
            continue
        for tr in rows:
            cells = [c for c in tr if c.tag in ("td", "th")]
            head = section == "thead" or (bool(cells) and all(c.tag == "th" for c in cells))
            texts: list[str] = []
            for cell in cells:
                span = (
                    int(cell.get("colspan") or 1) if (cell.get("colspan") or "1").isdigit() else 1
                )
                text = inline_text(cell)
                texts.extend([text] * span if head else [text] + [""] * (span - 1))
            yield head, texts


def page_title(root: Element) -> str:
    """<title> without a trailing site name after the last ' — ' (or ' | ')."""
    title_el = root.find(".//title")
    title = clean(text_of(title_el)) if title_el is not None else ""
    for sep in _TITLE_SEPARATORS:
        if sep in title:
            return title.rsplit(sep, 1)[0].strip()
    return title
