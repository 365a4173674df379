"""EPUB books: chapters in spine order, each read by the HTML parser, under the chapter's
own headings or, when it has none, its title from the book's table of contents (EPUB 3
`nav` or EPUB 2 NCX). Standard library zipfile and lxml; no e-book library needed.

Books whose chapters are encrypted (DRM, declared in META-INF/encryption.xml) are refused;
obfuscated fonts, which EPUB also declares there, are not chapters and do not matter.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import replace
from urllib.parse import unquote, urldefrag

import lxml.etree

from citewise.errors import CorruptDocumentError, DocumentError, EncryptedDocumentError
from citewise.ingest.parsers._common import clean, finish, stem
from citewise.ingest.parsers._html_text import Element
from citewise.types import Block, ParsedDocument

NO_TEXT = "the EPUB book has no chapter with any text"
_CHAPTER_TYPES = frozenset({"application/xhtml+xml", "text/html", "application/x-dtbook+xml"})
_OPF = "{http://www.idpf.org/2007/opf}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_NCX = "{http://www.daisy.org/z3986/2005/ncx/}"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_ENC = "{http://www.w3.org/2001/04/xmlenc#}"


def _xml(archive: zipfile.ZipFile, name: str) -> Element:
    parser = lxml.etree.XMLParser(
        resolve_entities=False, no_network=True, huge_tree=False, recover=True
    )
    try:
        root = lxml.etree.fromstring(archive.read(name), parser)
    except KeyError as exc:
        raise CorruptDocumentError(f"the EPUB book has no {name}") from exc
    if root is None:
        raise CorruptDocumentError(f"the EPUB book's {name} is empty or damaged")
    return root


def _member(base: str, href: str) -> str:
    return posixpath.normpath(posixpath.join(base, unquote(urldefrag(href).url)))


def _check_drm(archive: zipfile.ZipFile) -> None:
    if "META-INF/encryption.xml" not in archive.namelist():
        return
    root = _xml(archive, "META-INF/encryption.xml")
    for ref in root.iter(f"{_ENC}CipherReference"):
        if ref.get("URI", "").lower().endswith((".xhtml", ".html", ".htm", ".xml")):
            raise EncryptedDocumentError(
                "the EPUB book is encrypted (DRM); only DRM-free books can be read"
            )


def _toc_labels(archive: zipfile.ZipFile, opf: Element, base: str) -> dict[str, str]:
    """Chapter file → its first title in the table of contents."""
    items = {i.get("id"): i for i in opf.iter(f"{_OPF}item")}
    labels: dict[str, str] = {}
    nav = next((i for i in items.values() if "nav" in (i.get("properties") or "").split()), None)
    spine = next(opf.iter(f"{_OPF}spine"), None)
    ncx = items.get(spine.get("toc")) if spine is not None else None
    try:
        if nav is not None:
            path = _member(base, nav.get("href", ""))
            page = lxml.etree.fromstring(archive.read(path), lxml.etree.HTMLParser())
            for a in page.iter("a") if page is not None else ():
                target = _member(posixpath.dirname(path), a.get("href", ""))
                labels.setdefault(target, clean("".join(a.itertext())))
        elif ncx is not None:
            path = _member(base, ncx.get("href", ""))
            for point in _xml(archive, path).iter(f"{_NCX}navPoint"):
                text = next(point.iter(f"{_NCX}text"), None)
                content = next(point.iter(f"{_NCX}content"), None)
                if text is not None and content is not None:
                    target = _member(posixpath.dirname(path), content.get("src", ""))
                    labels.setdefault(target, clean(text.text or ""))
    except (KeyError, lxml.etree.XMLSyntaxError, ValueError):
        return {}  # a broken table of contents only costs the chapter titles
    return {k: v for k, v in labels.items() if v}


def _chapters(archive: zipfile.ZipFile) -> tuple[str, Iterator[Block]]:
    container = _xml(archive, "META-INF/container.xml")
    rootfile = next(container.iter(f"{_CONTAINER}rootfile"), None)
    if rootfile is None or not rootfile.get("full-path"):
        raise CorruptDocumentError("the EPUB book's container names no package file")
    opf_path = rootfile.get("full-path", "")
    opf = _xml(archive, opf_path)
    base = posixpath.dirname(opf_path)
    title = clean(next((t.text or "" for t in opf.iter(f"{_DC}title")), ""))
    items = {i.get("id"): i for i in opf.iter(f"{_OPF}item")}
    labels = _toc_labels(archive, opf, base)
    order = [items[r.get("idref")] for r in opf.iter(f"{_OPF}itemref") if r.get("idref") in items]
    chapters = [i for i in order if i.get("media-type") in _CHAPTER_TYPES]
    return title, _chapter_blocks(
        archive, [_member(base, c.get("href", "")) for c in chapters], labels
    )


def _chapter_blocks(
    archive: zipfile.ZipFile, paths: list[str], labels: dict[str, str]
) -> Iterator[Block]:
    from citewise.ingest.parsers.html import parse_html

    for path in paths:
        try:
            page = parse_html(archive.read(path), posixpath.basename(path))
        except KeyError:
            continue  # the spine names a file the book does not hold
        except DocumentError:
            continue  # a cover picture or an empty page
        label = labels.get(path, "")
        for block in page.blocks:
            if label and not block.heading_path:
                block = replace(block, heading_path=(label,))
            yield block


def parse_epub(data: bytes, name: str) -> ParsedDocument:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            _check_drm(archive)
            title, blocks = _chapters(archive)
            kept = list(blocks)
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as exc:
        raise CorruptDocumentError(f"the EPUB book is damaged ({exc})") from exc
    return finish(title=title or stem(name), blocks=kept, fmt="epub", no_text=NO_TEXT)
