"""Document parsers: bytes → `ParsedDocument` (blocks in reading order with heading paths).

`parse_file` picks the parser by sniffed content, not by extension alone: a `.pdf` that is
plain text is reported as such instead of failing deep inside pdfium. `PARSERS` maps a
format name to its parser; each backend module is imported only when first used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, cast

from citewise.errors import (
    ConfigError,
    CorruptDocumentError,
    DocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    TooLargeError,
    UnsupportedFormatError,
)
from citewise.ingest.parsers._archive import DEFAULT_MAX_INFLATED, ArchiveLimits, check_archive
from citewise.ingest.parsers._sniff import (
    ZIP_MAGIC,
    describe,
    is_encrypted_ole,
    ole_damage,
    sniff,
)
from citewise.ingest.parsers.plugins import PluginFormats
from citewise.registry import Registry
from citewise.text.sizes import human_size
from citewise.types import ParsedDocument

__all__ = [
    "PARSERS",
    "SUPPORTED_EXTENSIONS",
    "Parser",
    "choose_parser",
    "get_parser",
    "is_supported",
    "parse_bytes",
    "parse_file",
    "supported_extensions",
]

DEFAULT_MAX_BYTES = 100 * 2**20
SHEET_INFLATION = 40  # worksheet XML compresses ~8-12 times; 40 leaves room
# Raise when a parser changes what it extracts from the same bytes: stored documents made by
# an older version are then re-parsed by the next ingest instead of skipped as unchanged.
# 2: Sphinx tables of contents and link indexes left out of HTML
# 3: PDF running headers whose page number changes (per-chapter headers) left out; headings
#    below a PDF outline's entries deepen its section paths
# 4: Markdown HTML comments left out; links whose text is a code span become their text
# 5: Texinfo page headers ("Next: …, Up: … [Contents][Index]") left out of HTML
# 6: a PDF page whose every line looks like a running header or footer keeps its lines;
#    PDF pages without a text layer and DOCX files of images are read by OCR
# 7: page furniture of documentation generators (DocBook "Prev | Up | Next" tables, javadoc
#    bars, pager lines, breadcrumbs, pydoc's index cell) left out of HTML
# 8: tables on PDF pages read as rows, each value with its column header
# 9: CSV/TSV read as rows ("<column>: <value> · …") in blocks cited by row range
# 10: an e-mail attachment's heading is marked ("› report.pdf") so citations name the file
# 11: DOCX text inside tracked insertions (w:ins) read; NULs ending Outlook strings dropped
PARSER_VERSION = 11


class Parser(Protocol):
    def __call__(self, data: bytes, name: str, **options: Any) -> ParsedDocument: ...


def _lazy(module: str, function: str) -> Parser:
    """The parser `function` of `module`, imported at its first call."""

    def parse(data: bytes, name: str, **options: Any) -> ParsedDocument:
        backend = importlib.import_module(f"citewise.ingest.parsers.{module}")
        return cast(Parser, getattr(backend, function))(data, name, **options)

    parse.__name__ = function
    parse.__qualname__ = function
    parse.__doc__ = f"Parses {function[6:].upper()} bytes (see citewise.ingest.parsers.{module})."
    return parse


def _unknown_parser(name: str, names: list[str]) -> ConfigError:
    return ConfigError(f"unknown parser {name!r}; valid parsers: {', '.join(sorted(names))}")


# format name → (module, function); formats without an entry live in a module of their name
_MODULES = {
    "spreadsheet": ("spreadsheet", "parse_spreadsheet"),
    "csv": ("delimited", "parse_delimited"),
    "email": ("eml", "parse_eml"),
    "mbox": ("mbox", "parse_mbox"),
    "epub": ("epub", "parse_epub"),
    "odt": ("opendocument", "parse_odt"),
    "odp": ("opendocument", "parse_odp"),
    "rtf": ("rtf", "parse_rtf"),
    "legacy": ("legacy", "parse_legacy"),
}
_FORMATS = ("pdf", "docx", "pptx", "image", "html", "markdown", "text", "msg", *_MODULES)
PARSERS = Registry[Parser](
    "parser",
    [(fmt, _lazy(*_MODULES.get(fmt, (fmt, f"parse_{fmt}")))) for fmt in _FORMATS],
    unknown=_unknown_parser,
)

# formats installed packages add (the `citewise.parsers` entry points), loaded at first use
PLUGIN_FORMATS = PluginFormats(PARSERS)

FORMAT_BY_EXTENSION: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".pptx": "pptx",
    **dict.fromkeys((".png", ".jpg", ".jpeg", ".tif", ".tiff"), "image"),
    **dict.fromkeys((".html", ".htm", ".xhtml"), "html"),
    **dict.fromkeys((".md", ".markdown", ".mdx"), "markdown"),
    **dict.fromkeys((".txt", ".text", ".rst", ".log"), "text"),
    **dict.fromkeys((".csv", ".tsv", ".tab"), "csv"),
    **dict.fromkeys((".xlsx", ".xlsm", ".ods", ".xls"), "spreadsheet"),
    ".eml": "email",
    ".msg": "msg",  # read when the optional extract-msg is installed
    ".mbox": "mbox",
    ".epub": "epub",
    ".odt": "odt",
    ".odp": "odp",
    ".rtf": "rtf",
    **dict.fromkeys((".doc", ".ppt"), "legacy"),  # converted when LibreOffice is installed
}
SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(FORMAT_BY_EXTENSION)
_OFFICE_NAMES = {
    "docx": "a Word document",
    "pptx": "a PowerPoint presentation",
    "spreadsheet": "a spreadsheet (Excel or OpenDocument)",
    "epub": "an EPUB book",
    "odt": "an OpenDocument text",
    "odp": "an OpenDocument presentation",
    "rtf": "an RTF document",
    "msg": "an Outlook message",
}
# sniffed content → the parser that reads it, whatever the extension says
_BY_CONTENT = {
    "pdf": "pdf", "docx": "docx", "pptx": "pptx", "image": "image", "xlsx": "spreadsheet",
    "ods": "spreadsheet", "xls": "spreadsheet", "odt": "odt", "odp": "odp", "epub": "epub",
    "rtf": "rtf",
}  # fmt: skip
# text-like formats chosen by extension once the content is known to be text
_TEXT_FORMATS = frozenset({"markdown", "csv", "email", "mbox"})
# formats whose parser takes the `ocr` option: pages or images without a text layer
OCR_FORMATS = frozenset({"pdf", "docx", "image"})
PAGED_FORMATS = frozenset({"pdf"})  # parsers that report each page read (`on_page`)
# (pages read, pages in the file): a long PDF's progress while it is parsed
OnPage = Callable[[int, int], None]
DEFAULT_OCR = "tesseract"
_NOT_A_DOCUMENT = {
    "zip": "a ZIP archive that is not an Office, OpenDocument or EPUB document",
    "ole": "an OLE file that is not a Word, PowerPoint, Excel or Outlook document",
}


def get_parser(name: str) -> Parser:
    """The parser registered under `name`; the error lists the valid names."""
    return PARSERS.get(name)


def is_supported(path: Path) -> bool:
    """Whether a folder walk should pick this file up (by extension)."""
    ext = path.suffix.lower()
    plugin = PLUGIN_FORMATS.format_for(ext)  # first: a broken plugin stops the walk at once
    return ext in SUPPORTED_EXTENSIONS or plugin is not None


def supported_extensions() -> frozenset[str]:
    """Every extension a parser reads: the built-in ones and those of installed plugins."""
    return SUPPORTED_EXTENSIONS | PLUGIN_FORMATS.extensions()


def _ext_label(ext: str) -> str:
    return ext or "(no extension)"


def choose_parser(data: bytes, name: str) -> str:
    """The format name for `data`: content first, the extension only for text-like files.
    Raises when the content contradicts the extension or is not a document at all."""
    ext = Path(name).suffix.lower()
    expected = FORMAT_BY_EXTENSION.get(ext)
    if expected is None and (plugin := PLUGIN_FORMATS.format_for(ext)) is not None:
        return plugin
    kind = sniff(data)
    if kind in _BY_CONTENT:
        return _BY_CONTENT[kind]
    if expected == "pdf":
        raise CorruptDocumentError(
            f"not a PDF: the file has a .pdf extension but its content looks like {describe(data)}"
        )
    if expected == "image":
        raise CorruptDocumentError(
            f"not a PNG, JPEG or TIFF image: the file has a {ext} extension but its content "
            f"looks like {describe(data)}"
        )
    if is_encrypted_ole(data):
        raise EncryptedDocumentError(
            "the Office file is encrypted with a password; remove the password and save it again"
        )
    if kind == "msg":
        from citewise.ingest.parsers._outlook import MISSING as NO_MSG_READER
        from citewise.ingest.parsers._outlook import available

        if not available():
            raise UnsupportedFormatError(NO_MSG_READER)
        return "msg"
    if kind in ("doc", "ppt"):
        from citewise.ingest.parsers.legacy import MISSING, soffice

        if soffice() is None:
            raise UnsupportedFormatError(MISSING)
        return "legacy"
    if kind == "ole" and (damage := ole_damage(data)):
        raise CorruptDocumentError(
            f"the file is damaged: its OLE directory cannot be read ({damage})"
        )
    if expected in _OFFICE_NAMES:
        raise CorruptDocumentError(
            f"not {_OFFICE_NAMES[expected]}: the file has a {ext} extension but its content "
            f"looks like {describe(data)}"
        )
    if kind in ("zip", "ole", "binary"):
        what = _NOT_A_DOCUMENT.get(kind) or describe(data)
        if expected is not None:
            raise UnsupportedFormatError(f"the {ext} file holds {what}, not text")
        raise UnsupportedFormatError(f"unsupported file type {_ext_label(ext)}: {what}")
    if expected == "html" or kind == "html":
        return "html"
    return expected if expected in _TEXT_FORMATS else "text"


def inflated_limit(fmt: str, size: int, max_inflated: int) -> int:
    """How far a ZIP-based file may inflate: a spreadsheet is read as a stream, so its sheets
    may inflate past the general cap in the ratio real XML compresses (a bomb's is ~1000)."""
    return max(max_inflated, SHEET_INFLATION * size) if fmt == "spreadsheet" else max_inflated


def _size(size: int) -> str:
    return human_size(size)


def _too_large(size: int, limit: int) -> TooLargeError:
    return TooLargeError(f"the file is {_size(size)}, over the limit of {_size(limit)}")


def parse_bytes(
    data: bytes,
    name: str,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_inflated_bytes: int = DEFAULT_MAX_INFLATED,
    ocr: str = DEFAULT_OCR,
    on_page: OnPage | None = None,
) -> ParsedDocument:
    """Parses an in-memory file (an upload); `name` gives the extension and fallback title.
    ZIP-based documents are inflated as a stream and counted before their parser opens them.
    `ocr` names the engine for pages without a text layer ("none": no OCR)."""
    if len(data) > max_bytes:
        raise _too_large(len(data), max_bytes)
    if not data:
        raise EmptyDocumentError("file is empty")
    fmt = choose_parser(data, name)
    if data.startswith(ZIP_MAGIC):
        check_archive(
            data, ArchiveLimits(max_inflated=inflated_limit(fmt, len(data), max_inflated_bytes))
        )
    options: dict[str, Any] = {"ocr": ocr} if fmt in OCR_FORMATS else {}
    if on_page is not None and fmt in PAGED_FORMATS:
        options["on_page"] = on_page
    return get_parser(fmt)(data, name, **options)


def parse_file(
    path: Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_inflated_bytes: int = DEFAULT_MAX_INFLATED,
    ocr: str = DEFAULT_OCR,
    on_page: OnPage | None = None,
) -> ParsedDocument:
    """Reads and parses one file. Raises a DocumentError subclass with a readable message
    when the file is too large, empty, corrupt, encrypted, unsupported or has no text."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise _too_large(size, max_bytes)
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"cannot read the file: {exc.strerror or exc}") from exc
    return parse_bytes(
        data, path.name, max_bytes=max_bytes, max_inflated_bytes=max_inflated_bytes, ocr=ocr,
        on_page=on_page,
    )  # fmt: skip
