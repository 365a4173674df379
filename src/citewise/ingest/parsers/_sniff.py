"""Content sniffing: what a file's bytes are, regardless of its extension (pure)."""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from typing import Literal

from citewise.errors import CorruptDocumentError
from citewise.ingest.parsers._archive import check_member_count
from citewise.ingest.parsers._decode import looks_binary

Sniffed = Literal[
    "pdf", "docx", "pptx", "xlsx", "ods", "odt", "odp", "epub", "xls", "doc", "ppt", "msg", "rtf",
    "image", "zip", "ole", "binary", "html", "text",
]  # fmt: skip
ZipKind = Literal["docx", "pptx", "xlsx", "ods", "odt", "odp", "epub", "zip"]

PDF_MAGIC = b"%PDF-"
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .doc/.ppt, and encrypted OOXML
RTF_MAGIC = b"{\\rtf"
# an OpenDocument package names its kind in a first, stored member called "mimetype"
_ODF_MIMETYPES: dict[bytes, ZipKind] = {
    b"application/vnd.oasis.opendocument.spreadsheet": "ods",
    b"application/vnd.oasis.opendocument.text": "odt",
    b"application/vnd.oasis.opendocument.presentation": "odp",
    b"application/epub+zip": "epub",
}
# the main stream of a legacy Office file, as its OLE directory entry starts: the name in
# UTF-16 padded with zeros to 64 bytes, then the name's length (text inside a document never
# looks like this)


def _entry(name: str) -> bytes:
    encoded = (name + "\x00").encode("utf-16-le")
    return encoded.ljust(64, b"\x00") + struct.pack("<H", len(encoded))


_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")
# the image formats OCR reads: PNG, JPEG, TIFF (both byte orders)
IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*")
_HTML_START = re.compile(rb"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)[\s>]", re.I | re.S)
# (magic, label, strong): a weak magic could also start a text file, so it only counts
# when the bytes look binary as well
_KNOWN_BINARY: tuple[tuple[bytes, str, bool], ...] = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image", True),
    (b"\xff\xd8\xff", "a JPEG image", True),
    (b"II*\x00", "a TIFF image", True),
    (b"MM\x00*", "a TIFF image", True),
    (b"GIF87a", "a GIF image", True),
    (b"GIF89a", "a GIF image", True),
    (b"\x7fELF", "an ELF executable", True),
    (b"\x1f\x8b", "a gzip archive", True),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", True),
    (b"Rar!\x1a", "a RAR archive", True),
    (b"SQLite format 3\x00", "an SQLite database", True),
    (b"MZ", "a Windows executable", False),
    (b"RIFF", "a RIFF media file", False),
    (b"ID3", "an MP3 audio file", False),
    (b"OggS", "an Ogg media file", False),
)


def starts_like_html(data: bytes) -> bool:
    """`<!doctype html` or `<html` at the start, after a BOM, whitespace and comments."""
    head = data[:4096].removeprefix(b"\xef\xbb\xbf")
    return bool(_HTML_START.match(head))


def is_pdf(data: bytes) -> bool:
    """The PDF header may follow a little junk (the spec tolerates up to 1 KB)."""
    return PDF_MAGIC in data[:1024]


def office_kind(data: bytes) -> ZipKind:
    """Which document package a ZIP holds, judged by its main part (OOXML) or its
    "mimetype" member (OpenDocument, EPUB)."""
    check_member_count(data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            mimetype = _small_member(archive, "mimetype") if "mimetype" in names else b""
    except (zipfile.BadZipFile, OSError, ValueError, zlib.error) as exc:
        raise CorruptDocumentError(f"the ZIP container is damaged ({exc})") from exc
    if "word/document.xml" in names:
        return "docx"
    if "ppt/presentation.xml" in names:
        return "pptx"
    if "xl/workbook.xml" in names:
        return "xlsx"
    return _ODF_MIMETYPES.get(mimetype.strip(), "zip")


def _small_member(archive: zipfile.ZipFile, name: str) -> bytes:
    with archive.open(name) as member:
        return member.read(128)


OleKind = Literal["xls", "doc", "ppt", "msg", "ole"]
_OLE_STREAMS: tuple[tuple[str, OleKind], ...] = (
    ("Workbook", "xls"), ("Book", "xls"), ("WordDocument", "doc"),
    ("PowerPoint Document", "ppt"), ("__properties_version1.0", "msg"),
)  # fmt: skip


_OLE_ERRORS = (OSError, ValueError, IndexError, struct.error, RecursionError)


def _ole_root(data: bytes) -> set[str] | None:
    """The names (lower case) of the streams and storages at an OLE file's root, None when
    its directory cannot be read. Only the root counts: a message's attached workbook or an
    encrypted attachment keeps its own directory inside one of the message's streams."""
    try:
        return _read_root(data)
    except _OLE_ERRORS:
        return None


def ole_damage(data: bytes) -> str:
    """Why an OLE file's directory cannot be read ('' when it can)."""
    try:
        _read_root(data)
    except _OLE_ERRORS as exc:
        return str(exc) or type(exc).__name__
    return ""


def _read_root(data: bytes) -> set[str]:
    import olefile

    with olefile.OleFileIO(io.BytesIO(data)) as ole:  # bytes under 1.5 KB read as a path
        return {path[0].lower() for path in ole.listdir(streams=True, storages=True)}


def ole_kind(data: bytes) -> OleKind:
    """A legacy Excel workbook (read directly), Word document or PowerPoint deck (converted
    by LibreOffice), an Outlook message, or another OLE file; a file whose directory is
    damaged is judged by the stream names it holds."""
    root = _ole_root(data)
    for name, kind in _OLE_STREAMS:
        if (name.lower() in root) if root is not None else (_entry(name) in data):
            return kind
    return "ole"


def sniff(data: bytes) -> Sniffed:
    if is_pdf(data):
        return "pdf"
    if data.startswith(ZIP_MAGIC):
        return office_kind(data)
    if data.startswith(OLE_MAGIC):
        return "ole" if is_encrypted_ole(data) else ole_kind(data)
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(RTF_MAGIC):
        return "rtf"
    if data.startswith(IMAGE_MAGIC):
        return "image"
    if describe_binary(data) or looks_binary(data):
        return "binary"
    return "html" if starts_like_html(data) else "text"


def describe_binary(data: bytes) -> str:
    """A name for well-known binary formats, '' if unknown."""
    for magic, label, strong in _KNOWN_BINARY:
        if data.startswith(magic) and (strong or looks_binary(data)):
            return label
    return ""


def is_encrypted_ole(data: bytes) -> bool:
    """Password-protected .docx/.pptx files are OLE containers with an EncryptionInfo stream
    at their root; a password-protected .xls/.doc/.ppt says so inside its main stream."""
    if not data.startswith(OLE_MAGIC):
        return False
    root = _ole_root(data)
    if root is None:
        return _ENCRYPTION_INFO in data
    return "encryptioninfo" in root or _legacy_encrypted(data)


def _legacy_encrypted(data: bytes) -> bool:
    import olefile

    from citewise.ingest.parsers._ole_crypt import legacy_encrypted

    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            return legacy_encrypted(ole)
    except _OLE_ERRORS:
        return False


def describe(data: bytes) -> str:
    """How the content looks, for error messages ('plain text', 'a ZIP archive', …)."""
    if is_pdf(data):
        return "a PDF"
    if data.startswith(ZIP_MAGIC):
        return "a ZIP archive"
    if data.startswith(OLE_MAGIC):
        return "a legacy Office (OLE) file"
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(RTF_MAGIC):
        return "an RTF document"
    label = describe_binary(data)
    if label or looks_binary(data):
        return label or "binary data"
    return "HTML" if starts_like_html(data) else "plain text"
