"""OpenDocument text (.odt) and presentations (.odp): `content.xml` read from the package
with the standard library's zipfile and lxml, as a stream of top-level elements (each freed
once read), so memory stays at one paragraph, list, table or slide.

Text: headings (`text:h` with their outline level) make the heading path; paragraphs,
lists and tables become blocks; tables of contents and indexes are left out. Slides: each
`draw:page` is a page, its title frame the section, speaker notes under "Notes".
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator

import lxml.etree

from citewise.errors import CorruptDocumentError, EncryptedDocumentError
from citewise.ingest.parsers._common import HeadingStack, clean, finish, list_block, stem
from citewise.ingest.parsers._common import table_block as make_table_block
from citewise.ingest.parsers._html_text import Element
from citewise.types import Block, ParsedDocument

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "presentation": "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0",
    "manifest": "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
}
MAX_REPEAT = 64  # a cell or row "repeated" 1,048,576 times to fill a sheet's width
_SKIPPED = frozenset(
    f"{{{NS['text']}}}{t}"
    for t in ("table-of-content", "alphabetical-index", "illustration-index", "bibliography",
              "tracked-changes", "sequence-decls", "variable-decls", "user-field-decls")
)  # fmt: skip
_SPACES = frozenset(f"{{{NS['text']}}}{t}" for t in ("s", "tab", "line-break"))
_NOTES = f"{{{NS['text']}}}note"


def _q(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def inline_text(el: Element) -> str:
    """An element's text with spaces for `text:s`, tabs and line breaks; notes left out."""
    out: list[str] = [el.text or ""]
    for child in el:
        if child.tag in _SPACES:
            out.append(" ")
        elif child.tag != _NOTES:
            out.append(inline_text(child))
        out.append(child.tail or "")
    return "".join(out)


def table_rows(table: Element) -> list[list[str]]:
    rows: list[list[str]] = []
    for row in table.iter(_q("table", "table-row")):
        cells: list[str] = []
        for cell in row:
            if cell.tag not in (_q("table", "table-cell"), _q("table", "covered-table-cell")):
                continue
            repeat = min(
                int(cell.get(_q("table", "number-columns-repeated"), "1") or 1), MAX_REPEAT
            )
            text = clean(" ".join(inline_text(p) for p in cell.iter(_q("text", "p"))))
            cells.extend([text] * repeat)
        while cells and not cells[-1]:
            cells.pop()
        rows.append(cells)
    return rows


def _list_items(lst: Element, depth: int, out: list[tuple[int, str]]) -> None:
    for item in lst:
        for child in item:
            if child.tag == _q("text", "list"):
                _list_items(child, depth + 1, out)
            elif child.tag in (_q("text", "p"), _q("text", "h")):
                out.append((depth, clean(inline_text(child))))


def _check_encryption(archive: zipfile.ZipFile) -> None:
    try:
        manifest = archive.read("META-INF/manifest.xml")
    except KeyError:
        return
    if b"encryption-data" in manifest:
        raise EncryptedDocumentError(
            "the OpenDocument file is encrypted with a password; remove the password and save"
            " it again"
        )


def _top_level(data: bytes, body: str) -> Iterator[Element]:
    """The children of `office:body/office:<body>` one by one, each freed after use."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            _check_encryption(archive)
            with archive.open("content.xml") as content:
                depth = 0
                events = lxml.etree.iterparse(
                    content, events=("start", "end"), resolve_entities=False, no_network=True,
                    huge_tree=False, remove_comments=True,
                )  # fmt: skip
                inside = -1
                for event, el in events:
                    if event == "start":
                        depth += 1
                        if el.tag == _q("office", body):
                            inside = depth
                        continue
                    depth -= 1
                    if inside >= 0 and depth == inside:
                        yield el
                        el.clear(keep_tail=False)
                        while el.getprevious() is not None:
                            del el.getparent()[0]
    except KeyError as exc:
        raise CorruptDocumentError("the OpenDocument package has no content.xml") from exc
    except (zipfile.BadZipFile, lxml.etree.XMLSyntaxError, OSError, EOFError, zlib.error) as exc:
        raise CorruptDocumentError(f"the OpenDocument content is damaged ({exc})") from exc


def _text_blocks(el: Element, stack: HeadingStack) -> Iterator[Block | None]:
    tag = el.tag
    if tag in _SKIPPED:
        return
    if tag == _q("text", "h"):
        level = int(el.get(_q("text", "outline-level"), "1") or 1)
        title = clean(inline_text(el))
        if title:
            stack.push(level, title)
    elif tag == _q("text", "p"):
        text = clean(inline_text(el))
        yield Block(text, stack.path) if text else None
    elif tag == _q("text", "list"):
        items: list[tuple[int, str]] = []
        _list_items(el, 0, items)
        yield list_block(items, stack.path)
    elif tag == _q("table", "table"):
        yield make_table_block(table_rows(el), stack.path)
    else:  # sections and other containers
        for child in el:
            yield from _text_blocks(child, stack)


def parse_odt(data: bytes, name: str) -> ParsedDocument:
    stack = HeadingStack()
    blocks: list[Block | None] = []
    first_heading = ""
    for el in _top_level(data, "text"):
        blocks.extend(_text_blocks(el, stack))
        first_heading = first_heading or (stack.path[0] if stack.path else "")
    return finish(
        title=first_heading or stem(name),
        blocks=blocks,
        fmt="odt",
        no_text="the OpenDocument text contains no text",
    )


def _frame_content(frame: Element) -> list[Element]:
    """What a shape holds: a text box's paragraphs and lists, or a table."""
    if frame.tag == _q("draw", "custom-shape"):
        return list(frame)
    out: list[Element] = []
    for child in frame:
        if child.tag == _q("draw", "text-box"):
            out.extend(child)
        elif child.tag == _q("table", "table"):
            out.append(child)
    return out


def _slide_blocks(page: Element, number: int) -> Iterator[Block | None]:
    title = ""
    for frame in page.iter(_q("draw", "frame")):
        if frame.get(_q("presentation", "class")) == "title":
            title = clean(inline_text(frame))
            break
    path = (title,) if title else ()
    stack = HeadingStack()
    produced = False
    for frame in page.iterchildren(_q("draw", "frame"), _q("draw", "custom-shape")):
        if frame.get(_q("presentation", "class")) == "title":
            continue
        for child in _frame_content(frame):
            for block in _text_blocks(child, stack):
                if block is not None:
                    produced = True
                    yield Block(block.text, path, number, block.kind, block.header)
    if title and not produced:  # a section divider: its title is the slide's text
        yield Block(title, path, number)
    for notes in page.iter(_q("presentation", "notes")):
        text = clean(" ".join(inline_text(p) for p in notes.iter(_q("text", "p"))))
        if text:
            yield Block(text, (*path, "Notes"), number)


def parse_odp(data: bytes, name: str) -> ParsedDocument:
    blocks: list[Block | None] = []
    number = 0
    for el in _top_level(data, "presentation"):
        if el.tag != _q("draw", "page"):
            continue
        number += 1
        blocks.extend(_slide_blocks(el, number))
    first = next((b.heading_path[0] for b in blocks if b is not None and b.heading_path), "")
    return finish(
        title=first or stem(name),
        blocks=blocks,
        fmt="odp",
        no_text="the OpenDocument presentation contains no text",
        page_count=number,
    )
