"""Plain-text parsing: encodings, binary refusal, paragraphs and title."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.errors import EmptyDocumentError, UnsupportedFormatError
from citewise.ingest.parsers import parse_bytes, parse_file
from citewise.ingest.parsers._decode import decode_text


def test_latin1_text_decodes(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("Café crème résumé über pelicans.\n".encode("latin-1"))
    doc = parse_file(path)
    assert doc.blocks[0].text == "Café crème résumé über pelicans."


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Naïve façade", "latin-1"),
        ("résumé", "cp1252"),
        ("Prix: 5€ — “quoted”", "cp1252"),
        ("Привет, как дела? Это тестовый текст на русском языке.", "cp1251"),
        ("Grüße aus Köln", "utf-16"),  # with BOM
        ("Grüße aus Köln", "utf-8-sig"),
    ],
)
def test_legacy_and_bom_encodings_decode_without_mojibake(text: str, encoding: str) -> None:
    assert decode_text(text.encode(encoding)) == text


def test_binary_bytes_in_a_text_file_are_unsupported() -> None:
    with pytest.raises(UnsupportedFormatError, match=r"\.txt file holds binary data"):
        parse_bytes(b"abc\x00\x01\x02\x03" * 64, "dump.txt")


def test_text_paragraphs_split_at_blank_lines() -> None:
    data = b"Pelican notes\n\nFirst paragraph\nwraps   here.\n  \t\nSecond one.\r\n\r\nThird.\n"
    doc = parse_bytes(data, "notes.txt")
    assert [b.text for b in doc.blocks] == [
        "Pelican notes",
        "First paragraph wraps here.",
        "Second one.",
        "Third.",
    ]
    assert doc.title == "Pelican notes"
    assert all(b.heading_path == () and b.page is None for b in doc.blocks)


def test_long_first_line_falls_back_to_the_stem() -> None:
    doc = parse_bytes(("word " * 40).encode(), "dir/long-notes.rst")
    assert doc.title == "long-notes"
    assert doc.format == "text"


def test_whitespace_only_text_is_empty() -> None:
    with pytest.raises(EmptyDocumentError):
        parse_bytes(b" \n\t\n", "blank.txt")


def test_csv_becomes_rows_read_with_their_header() -> None:
    data = b'species,wingspan\nBrown pelican,2.3 m\n"Dalmatian, curly",3.5 m\n'
    doc = parse_bytes(data, "birds.csv")
    assert doc.title == "birds"
    assert doc.format == "csv"
    assert [(b.kind, b.header, b.heading_path, b.text) for b in doc.blocks] == [
        (
            "table",
            "species | wingspan",
            ("rows 2–3",),
            "species: Brown pelican · wingspan: 2.3 m\nspecies: Dalmatian, curly · wingspan: 3.5 m",
        )
    ]
