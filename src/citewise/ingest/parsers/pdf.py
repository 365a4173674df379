"""PDF parser (pypdfium2): text per physical page, outline or guessed headings, running
headers/footers dropped, paragraphs re-joined and de-hyphenated."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from citewise.errors import CorruptDocumentError, EncryptedDocumentError
from citewise.ingest.parsers._common import HeadingStack, clean, finish, list_block, stem
from citewise.ingest.parsers._pdf_layout import (
    Line,
    PagePara,
    Paragraph,
    body_size,
    drop_running_lines,
    heading_level,
    is_subheading,
    looks_like_heading,
    paragraphs,
)
from citewise.ingest.parsers._pdf_outline import OutlineEntry, is_title_line, outline_paths
from citewise.ingest.parsers._pdf_tables import Table, split_tables
from citewise.ingest.parsers._pdf_text import text_page_lines
from citewise.ingest.parsers.ocr import OcrEngine, get_engine, ocr_page, page_lines
from citewise.types import Block, OcrPage, ParsedDocument

NO_TEXT = (
    "no extractable text: the PDF seems to be scanned images and OCR is off "
    "(set CITEWISE_OCR=tesseract or CITEWISE_OCR=rapidocr)"
)
NO_TEXT_AFTER_OCR = "no text: the PDF has no text layer and OCR found no text on its pages"
OCR_DPI = 300
CAPTION_CHARS = 120  # a longer paragraph above a table is prose, not its title
PAGES_PER_OPEN = 100
_OCR_MAX_PIXELS = 12_000_000  # a page is rendered at most this large, whatever its size
_JOINERS = {"list": "\n", "code": "\n\n"}  # code paragraphs were split at blank lines
_JUNK = re.compile(
    r"^(untitled( document)?|document\d*|microsoft word - .*|anonymous|unspecified|unknown)$", re.I
)


_PDFIUM_ERRORS = {
    pdfium_c.FPDF_ERR_UNKNOWN: "unknown error",
    pdfium_c.FPDF_ERR_FILE: "file access error",
    pdfium_c.FPDF_ERR_FORMAT: "not a valid PDF structure",
    pdfium_c.FPDF_ERR_PAGE: "page not found or content error",
}


def _open(data: bytes) -> Any:
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == pdfium_c.FPDF_ERR_PASSWORD:
            raise EncryptedDocumentError(
                "the PDF is encrypted with a password; remove the password and ingest it again"
            ) from exc
        if code == pdfium_c.FPDF_ERR_SECURITY:
            raise EncryptedDocumentError("the PDF uses an unsupported encryption scheme") from exc
        reason = _PDFIUM_ERRORS.get(code, "unknown error") if code is not None else str(exc)
        raise CorruptDocumentError(
            f"the PDF cannot be opened; it looks damaged or truncated (pdfium: {reason})"
        ) from exc


def _outline(pdf: Any) -> list[OutlineEntry]:
    stack: list[str] = []
    entries: list[OutlineEntry] = []
    for bookmark in pdf.get_toc():
        title = clean(bookmark.get_title())
        del stack[bookmark.level :]
        stack.append(title)
        dest = bookmark.get_dest()
        index = dest.get_index() if dest is not None else None
        if title and index is not None:
            entries.append(OutlineEntry(tuple(t for t in stack if t), index))
    return entries


def _read(
    data: bytes, ocr: str, on_page: Callable[[int, int], None] | None = None
) -> tuple[list[list[Line]], list[float], list[OcrPage]]:
    """Each page's lines from its text layer; a page without one (but with something drawn
    on it) is rendered and read by the `ocr` engine instead (made when first needed). Page
    by page, each closed after use, and the document reopened every `PAGES_PER_OPEN` pages:
    pdfium keeps what it parsed for a document (fonts, resources) until it is closed."""
    pages: list[list[Line]] = []
    heights: list[float] = []
    scanned: list[OcrPage] = []
    pdf = _open(data)
    try:
        count = len(pdf)
        for i in range(count):
            if i and i % PAGES_PER_OPEN == 0:
                pdf.close()
                pdf = _open(data)
            lines, height, record = _read_page(pdf, i, ocr)
            pages.append(lines)
            heights.append(height)
            if record is not None:
                scanned.append(record)
            if on_page is not None:
                on_page(i + 1, count)
    finally:
        pdf.close()
    return pages, heights, scanned


def _read_page(pdf: Any, i: int, ocr: str) -> tuple[list[Line], float, OcrPage | None]:
    page = pdf[i]
    try:
        height = float(page.get_height())
        textpage = page.get_textpage()
        try:
            lines = text_page_lines(textpage)
        finally:
            textpage.close()
        engine = get_engine(ocr) if not lines and _draws_something(page) else None
        if engine is None:
            return lines, height, None
        lines, record = _ocr(page, engine, i + 1)
        return lines, height, record
    except pdfium.PdfiumError as exc:
        raise CorruptDocumentError(f"page {i + 1} of the PDF cannot be read: {exc}") from exc
    finally:
        page.close()


def _draws_something(page: Any) -> bool:
    return bool(pdfium_c.FPDFPage_CountObjects(page.raw) > 0)


def _ocr(page: Any, engine: OcrEngine, number: int) -> tuple[list[Line], OcrPage]:
    """The page rendered at OCR_DPI (less for a huge page) and read; boxes in PDF points."""
    width, height = float(page.get_width()), float(page.get_height())
    scale = OCR_DPI / 72
    scale = min(scale, (_OCR_MAX_PIXELS / max(width * height, 1.0)) ** 0.5)
    image = page.render(scale=scale, grayscale=True).to_pil()
    result = engine.read(image)
    return page_lines(result, scale, height), ocr_page(result, engine.name, number, scale, "pt")


def _outline_blocks(
    paras: Sequence[PagePara], outline: Sequence[OutlineEntry], body: float
) -> Iterator[Block | None]:
    """Blocks under the outline's paths, each one level deeper when a heading the outline
    does not list (set larger or bold, like a function name in a reference chapter) heads
    it within its outline section."""
    section: tuple[str, ...] | None = None
    sub: str | None = None
    for i, (pp, path) in enumerate(zip(paras, outline_paths(paras, outline), strict=True)):
        if path is None:  # an outline entry's own heading line
            sub = None
            continue
        if path != section:
            section, sub = path, None
        following = paras[i + 1].para if i + 1 < len(paras) else None
        if is_subheading(pp.para, following, body):
            own = bool(path) and _same_title(pp.para.text, path[-1])
            sub = None if own else pp.para.text
            continue
        yield _para_block(pp, (*path, sub) if sub else path)


def _same_title(text: str, title: str) -> bool:
    """An outline entry's heading set a little differently ('2.13. Non-regular files' for
    'Nonregular files')."""
    return is_title_line(text, title) or _letters(text) == _letters(title)


def _letters(text: str) -> str:
    return re.sub(r"[\W\d_]+", "", text.lower())


def _guessed_blocks(paras: Sequence[PagePara], body: float) -> Iterator[Block | None]:
    flags = [
        looks_like_heading(pp.para, paras[i + 1].para if i + 1 < len(paras) else None, body)
        for i, pp in enumerate(paras)
    ]
    headings = [pp.para for pp, flag in zip(paras, flags, strict=True) if flag]
    stack = HeadingStack()
    for pp, flag in zip(paras, flags, strict=True):
        if flag:
            stack.push(heading_level(pp.para, headings, body), pp.para.text)
        else:
            yield _para_block(pp, stack.path)


def _paragraphs(page: Sequence[Line]) -> list[Paragraph]:
    """A page's paragraphs, each table on it one paragraph of rows."""
    if not any(ln.words for ln in page):  # not a tabular page
        return paragraphs(page)
    out: list[Paragraph] = []
    for part in split_tables(page):
        if isinstance(part, Table):
            size = max(ln.size for ln in part.lines)
            text = "\n".join(part.rows)
            header = " | ".join(h for h in (_caption(out), part.header) if h)
            out.append(Paragraph(text, len(part.rows), size, table=True, header=header))
        else:
            out.extend(paragraphs(part, page))
    return out


def _caption(above: Sequence[Paragraph]) -> str:
    """The short lines right above a table on its page ('Consolidated Balance Sheets',
    '(In millions)'): its header line carries them, so every piece of a long statement
    says what it is."""
    texts: list[str] = []
    for para in reversed(above):
        if para.table or para.code or para.bullet or len(para.text) > CAPTION_CHARS:
            break
        if sum(len(t) for t in texts) + len(para.text) > 2 * CAPTION_CHARS:
            break
        texts.append(para.text)
    return " ".join(reversed(texts))


def _para_block(pp: PagePara, path: tuple[str, ...]) -> Block | None:
    if pp.para.table:
        return Block(pp.para.text, path, pp.page, "table", header=pp.para.header)
    if pp.para.code:
        return Block(pp.para.text, path, pp.page, "code")
    if pp.para.bullet:
        return list_block([(0, pp.para.text)], path, pp.page)
    return Block(pp.para.text, path, pp.page, "text") if pp.para.text else None


def _merge_runs(blocks: Iterator[Block | None]) -> Iterator[Block]:
    """Consecutive list items (or code paragraphs) under one path on one page form one
    list (or code) block."""
    held: Block | None = None
    for block in blocks:
        if block is None:
            continue
        if (
            held is not None
            and block.kind == held.kind
            and block.kind in _JOINERS
            and (held.heading_path, held.page) == (block.heading_path, block.page)
        ):
            text = f"{held.text}{_JOINERS[block.kind]}{block.text}"
            held = Block(text, held.heading_path, held.page, held.kind)
            continue
        if held is not None:
            yield held
        held = block
    if held is not None:
        yield held


def _title(meta: dict[str, str], blocks: Sequence[Block], name: str) -> str:
    title = clean(meta.get("Title", ""))
    if title and not _JUNK.match(title):
        return title
    firsts = [b.heading_path[0] for b in blocks if b.heading_path]
    return firsts[0] if firsts else stem(name)


def parse_pdf(
    data: bytes, name: str, ocr: str = "none", on_page: Callable[[int, int], None] | None = None
) -> ParsedDocument:
    """`on_page(read, count)` after each page is read (ingest progress)."""
    raw_pages, heights, scanned = _read(data, ocr, on_page)
    pdf = _open(data)
    try:
        outline = _outline(pdf)
        meta = {k: str(v) for k, v in pdf.get_metadata_dict(skip_empty=True).items()}
        page_count = len(pdf)
    finally:
        pdf.close()
    pages = drop_running_lines(raw_pages, heights)
    paras = [PagePara(i + 1, para) for i, page in enumerate(pages) for para in _paragraphs(page)]
    if outline:
        blocks = list(_merge_runs(_outline_blocks(paras, outline, body_size(pages))))
    else:
        blocks = list(_merge_runs(_guessed_blocks(paras, body_size(pages))))
    return finish(
        title=_title(meta, blocks, name),
        blocks=blocks,
        fmt="pdf",
        no_text=NO_TEXT_AFTER_OCR if scanned else NO_TEXT,
        page_count=page_count,
        metadata=_metadata(meta),
        ocr=scanned,
    )


def _metadata(meta: dict[str, str]) -> dict[str, str]:
    """Author and subject as they are; keywords become comma-separated tags."""
    out = {k.lower(): clean(meta.get(k, "")) for k in ("Author", "Subject")}
    keywords = re.split(r"[;,]", meta.get("Keywords", ""))
    out["tags"] = ", ".join(k for k in (clean(k) for k in keywords) if k)
    return {k: v for k, v in out.items() if v and not _JUNK.match(v)}
