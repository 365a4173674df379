"""parse_file: sniffing by content, refusals with reasons, the registry."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from citewise.errors import (
    ConfigError,
    CorruptDocumentError,
    DocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    TooLargeError,
    UnsupportedFormatError,
)
from citewise.ingest.parsers import (
    PARSERS,
    SUPPORTED_EXTENSIONS,
    choose_parser,
    get_parser,
    is_supported,
    parse_bytes,
    parse_file,
)


def _write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def test_empty_file_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(EmptyDocumentError, match="file is empty"):
        parse_file(_write(tmp_path, "empty.txt", b""))


def test_pdf_extension_with_text_content_is_rejected_with_reason(tmp_path: Path) -> None:
    path = _write(tmp_path, "fake.pdf", "This is plain text pretending to be a PDF.\n")
    with pytest.raises(CorruptDocumentError) as info:
        parse_file(path)
    assert "not a PDF" in info.value.message
    assert "looks like plain text" in info.value.message


def test_docx_and_pptx_extensions_with_foreign_content_are_corrupt(tmp_path: Path) -> None:
    with pytest.raises(CorruptDocumentError, match=r"not a Word document.*HTML"):
        parse_file(_write(tmp_path, "page.docx", "<!DOCTYPE html><html><p>hi</p></html>"))
    with pytest.raises(CorruptDocumentError, match=r"not a PowerPoint presentation.*plain text"):
        parse_file(_write(tmp_path, "deck.pptx", "just some words"))


def test_corrupt_pdf_is_reported_as_corrupt(tmp_path: Path) -> None:
    path = _write(tmp_path, "broken.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\ngarbage")
    with pytest.raises(CorruptDocumentError, match="cannot be opened"):
        parse_file(path)


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("program.exe", b"MZ\x90\x00\x03\x00\x00\x00\x04\x00", ".exe: a Windows executable"),
        ("photo.gif", b"GIF89a\x01\x00\x01\x00\x00\x00\x00", ".gif: a GIF image"),
        ("blob", bytes(range(256)) * 4, "(no extension): binary data"),
    ],
)
def test_binary_content_is_unsupported_and_named(
    tmp_path: Path, name: str, data: bytes, expected: str
) -> None:
    with pytest.raises(UnsupportedFormatError) as info:
        parse_file(_write(tmp_path, name, data))
    assert info.value.message == f"unsupported file type {expected}"


def test_zip_that_is_not_office_is_unsupported(tmp_path: Path) -> None:
    path = tmp_path / "bundle.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("notes.txt", "hello")
    with pytest.raises(UnsupportedFormatError, match=r"\.zip: a ZIP archive that is not"):
        parse_file(path)


def test_encrypted_office_file_is_reported_as_encrypted(tmp_path: Path) -> None:
    # password-protected .docx files are OLE containers holding an EncryptionInfo stream
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504 + "EncryptionInfo".encode("utf-16-le")
    with pytest.raises(EncryptedDocumentError, match="password"):
        parse_file(_write(tmp_path, "secret.docx", ole))


def test_oversized_file_is_rejected_before_parsing(tmp_path: Path) -> None:
    path = _write(tmp_path, "big.txt", "word " * 1000)
    with pytest.raises(TooLargeError, match=r"the file is 4\.9 KiB, over the limit of 100 bytes"):
        parse_file(path, max_bytes=100)
    assert parse_file(path, max_bytes=10_000).format == "text"


def test_missing_file_is_reported_as_unreadable(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="cannot read the file") as info:
        parse_file(tmp_path / "gone.txt")
    assert info.value.reason == "unreadable"


def test_content_decides_over_extension() -> None:
    html = b"\xef\xbb\xbf  <!DOCTYPE html><html><body><p>Hello</p></body></html>"
    assert choose_parser(html, "notes.txt") == "html"
    assert choose_parser(html, "README") == "html"
    assert choose_parser(b"# Title\n\ntext", "notes.md") == "markdown"
    assert choose_parser(b"# Title\n\ntext", "notes") == "text"
    assert choose_parser(b"<p>fragment</p>", "page.htm") == "html"
    assert choose_parser(b"%PDF-1.7\n...", "download.bin") == "pdf"


def test_extensionless_text_file_is_parsed_as_text(tmp_path: Path) -> None:
    doc = parse_file(_write(tmp_path, "README", "Read me\n\nPelicans live on coasts.\n"))
    assert doc.format == "text"
    assert [b.text for b in doc.blocks] == ["Read me", "Pelicans live on coasts."]


def test_is_supported_goes_by_extension() -> None:
    assert is_supported(Path("a/b/report.PDF"))
    assert is_supported(Path("notes.markdown"))
    assert not is_supported(Path("program.exe"))
    assert not is_supported(Path("Makefile"))
    assert {".pdf", ".docx", ".pptx", ".html", ".md", ".txt", ".rst"} <= SUPPORTED_EXTENSIONS


def test_registry_names_every_format_and_rejects_unknown_names() -> None:
    assert set(PARSERS) == {
        "pdf", "docx", "pptx", "image", "html", "markdown", "text", "spreadsheet", "csv",
        "email", "mbox", "epub", "odt", "odp", "rtf", "legacy", "msg",
    }  # fmt: skip
    assert get_parser("text")(b"Hi\n\nthere", "x.txt").blocks[1].text == "there"
    with pytest.raises(ConfigError, match="valid parsers: csv, docx, email, epub, html, image"):
        get_parser("wpd")


def test_parse_bytes_refuses_oversized_uploads() -> None:
    with pytest.raises(TooLargeError):
        parse_bytes(b"x" * 2048, "upload.txt", max_bytes=1024)
