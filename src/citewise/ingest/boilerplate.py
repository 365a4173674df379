"""Page furniture of HTML documentation generators, found on the parsed tree: navigation bars
(DocBook/PostgreSQL "Prev | Up | Home | Next" tables, javadoc top/bottom bars, MkDocs and
Read-the-Docs pagers), breadcrumbs ("Docs » Guide » Page"), pager lines ("Next: …, Up: …",
"« Previous | Next »") and pydoc's "index / file path" cell.

Pure functions over lxml elements: `boilerplate_elements` names what to drop, the caller
decides whether to (the HTML parser keeps a page's text when dropping would empty it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

Element = Any  # lxml.etree._Element; lxml ships no type information

# link texts and labels that only move between pages
# fmt: off
NAV_WORDS = frozenset({
    "prev", "previous", "next", "up", "home", "top", "index", "contents", "table of contents",
    "modules", "module index", "back", "back to top", "go to top", "top of page", "toc",
    "previous page", "next page", "previous topic", "next topic", "frames", "no frames",
    "all classes", "skip navigation links", "skip to content",
    "skip to main content", "edit on github", "view page source", "show source",
})
# fmt: on
_CANDIDATES = frozenset({"div", "p", "table", "td", "th", "tr", "ul", "ol", "span", "center"})
_NAV_CLASS_TOKENS = frozenset(
    {"pager", "pagination", "crumbs", "breadcrumbs", "prev-next", "rst-footer-buttons"}
)
_SEPARATORS = re.compile(r"[\s|»«›‹>/<→←↑:,.\[\]()\-–—·•]+")
_LABEL = re.compile(r"\b(next|prev|previous|up|home|top)\s*:", re.I)
_CRUMB_MARKS = frozenset("»›→")  # not ">" or "/": those join paths and comparisons
_MAX_CHARS = 300  # a pager line or breadcrumb is short; longer blocks are content


def nav_class(classes: str) -> bool:
    """Class names of navigation bars: a token starting or ending with "nav" (DocBook's
    navheader/navfooter, javadoc's topNav/subNav/bottomNav/navList) or a pager's."""
    for token in classes.lower().split():
        if token.startswith("nav") or token.endswith("nav") or token in _NAV_CLASS_TOKENS:
            return True
    return False


def _short_text(el: Element) -> str | None:
    """The element's text, or None when it is longer than a navigation line."""
    parts: list[str] = []
    size = 0
    for piece in el.itertext():  # with the tails of its children, not its own
        size += len(piece)
        if size > _MAX_CHARS * 2:
            return None
        parts.append(piece)
    text = " ".join("".join(parts).split())
    return text if len(text) <= _MAX_CHARS else None


def _link_words(a: Element) -> str:
    return " ".join("".join(a.itertext()).split()).strip(" «»‹›<>←→↑[]|:").lower()


def is_pager(el: Element) -> bool:
    """A short block of links that only move between pages: every link is a navigation word
    ("Prev", "Up", "Next", "Home", "index") or a local file path, or follows a "Next:" /
    "Up:" label, and the rest is separators ("Prev | Up | Next", "Next: Intro, Up: Guide")."""
    links = list(el.iter("a"))
    if not links or any(True for _ in el.iter("h1", "h2", "h3", "h4", "h5", "h6")):
        return False
    text = _short_text(el)
    if text is None:
        return False
    labelled = bool(_LABEL.search(text))
    plain = text
    for a in links:
        words = _link_words(a)
        nav = words in NAV_WORDS or (a.get("href") or "").startswith("file:")
        if not nav and not labelled:
            return False
        plain = plain.replace(" ".join("".join(a.itertext()).split()), " ", 1)
    rest = _SEPARATORS.sub(" ", _LABEL.sub(" ", plain)).strip().lower()
    return not rest or all(w in NAV_WORDS for w in rest.split())


def is_breadcrumb(el: Element) -> bool:
    """ "Docs » Guide » Page": mostly short links joined by breadcrumb marks, with at most a
    short current-page title after them."""
    links = list(el.iter("a"))
    if len(links) < 2:
        return False
    text = _short_text(el)
    if text is None:
        return False
    marks = sum(1 for ch in text if ch in _CRUMB_MARKS)
    if marks < len(links) - 1 or any(len(_link_words(a).split()) > 6 for a in links):
        return False
    plain = text
    for a in links:
        plain = plain.replace(" ".join("".join(a.itertext()).split()), " ", 1)
    rest = _SEPARATORS.sub(" ", plain).split()
    linked = sum(len(_link_words(a)) for a in links)
    return len(rest) <= 8 and marks >= 1 and len("".join(rest)) <= linked


def is_toc_title(el: Element) -> bool:
    """What is left of a table of contents whose links were dropped: its title alone."""
    classes = set((el.get("class") or "").lower().split())
    if not classes & {"toc", "contents"}:
        return False
    text = _short_text(el)
    if text is None:
        return False
    plain = text
    for a in el.iter("a"):
        plain = plain.replace(" ".join("".join(a.itertext()).split()), " ", 1)
    return _SEPARATORS.sub(" ", plain).strip().lower() in {"", "contents", "table of contents"}


def is_nav_table(el: Element) -> bool:
    """A layout table its author labelled as navigation (DocBook: summary="Navigation header")."""
    return "navigation" in (el.get("summary") or "").lower()


def is_boilerplate(el: Element, tag: str) -> bool:
    if tag not in _CANDIDATES:
        return False
    if nav_class(el.get("class") or "") or (tag == "table" and is_nav_table(el)):
        return True
    if tag == "div" and is_toc_title(el):
        return True
    if el.find(".//a") is None:
        return False
    return is_pager(el) or (tag in ("p", "div", "ol", "ul", "span") and is_breadcrumb(el))


def boilerplate_elements(root: Element) -> list[Element]:
    """The outermost boilerplate elements under `root` (root itself excluded), page order."""
    return list(_walk(root))


def _walk(el: Element) -> Iterator[Element]:
    for child in el:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if is_boilerplate(child, tag):
            yield child
        else:
            yield from _walk(child)


def remove_keeping_tail(el: Element) -> None:
    """Drops an element from its tree; the text after it stays where it was."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)
