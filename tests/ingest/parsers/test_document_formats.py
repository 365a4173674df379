"""EPUB (spine order, chapter titles), OpenDocument text and slides, and RTF."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.errors import CorruptDocumentError, EncryptedDocumentError
from citewise.ingest.parsers import choose_parser, parse_bytes, parse_file
from format_files import epub, odf, odp, odt, rtf


def test_epub_chapters_come_in_spine_order_under_their_titles(tmp_path: Path) -> None:
    doc = parse_file(epub(tmp_path / "keeper.epub"))
    assert (doc.format, doc.title) == ("epub", "Keeper handbook")
    assert [(b.heading_path, b.text) for b in doc.blocks] == [
        (("Lighting the lamp",), "Trim the wick before dusk."),
        (("Logbook rules",), "Every entry in the logbook is signed in ink."),  # from the nav
    ]


def test_an_epub_with_drm_is_refused_as_encrypted(tmp_path: Path) -> None:
    with pytest.raises(EncryptedDocumentError, match="DRM"):
        parse_file(epub(tmp_path / "locked.epub", drm=True))


def test_odt_keeps_headings_lists_and_tables_and_skips_the_contents(tmp_path: Path) -> None:
    doc = parse_file(odt(tmp_path / "minutes.odt"))
    assert (doc.format, doc.title) == ("odt", "Harbour minutes")
    assert [(b.heading_path, b.kind, b.text) for b in doc.blocks] == [
        (("Harbour minutes",), "text", "The meeting opened at nine. Ada chaired it."),
        (
            ("Harbour minutes", "Decisions"),
            "list",
            "- Dredge the east channel\n- Paint the lighthouse\n  - in white",
        ),
        (("Harbour minutes", "Decisions"), "table", "Item: Dredging; Budget: 18,000"),
    ]


def test_odp_slides_are_pages_with_their_titles_and_notes(tmp_path: Path) -> None:
    doc = parse_file(odp(tmp_path / "briefing.odp"))
    assert (doc.format, doc.page_count) == ("odp", 2)
    assert [(b.heading_path, b.page, b.text) for b in doc.blocks] == [
        (("Tide tables",), 1, "- Spring tides peak at 6.1 m"),
        (("Tide tables", "Notes"), 1, "Mention the storm surge."),
        (("Crew",), 2, "Twelve pilots are on the roster."),
    ]


def test_an_encrypted_opendocument_is_refused_as_encrypted(tmp_path: Path) -> None:
    path = odf(
        tmp_path / "secret.odt",
        "application/vnd.oasis.opendocument.text",
        "<office:text><text:p>scrambled</text:p></office:text>",
        manifest_extra="<manifest:encryption-data/>",
    )
    with pytest.raises(EncryptedDocumentError, match="password"):
        parse_file(path)


def test_rtf_text_without_control_words_or_pictures(tmp_path: Path) -> None:
    doc = parse_file(rtf(tmp_path / "berth.rtf"))
    assert (doc.format, doc.title) == ("rtf", "Berth policy")
    assert [b.text for b in doc.blocks] == [
        "Berth policy",
        "The berth fee is 40 pounds per night.",
        "Café hours are 8 to 4.",
    ]


def test_content_decides_which_of_these_formats_a_file_is(tmp_path: Path) -> None:
    assert choose_parser(rtf(tmp_path / "a.rtf").read_bytes(), "policy.doc") == "rtf"
    assert choose_parser(odt(tmp_path / "b.odt").read_bytes(), "minutes.epub") == "odt"
    assert choose_parser(epub(tmp_path / "c.epub").read_bytes(), "book.zip") == "epub"
    with pytest.raises(CorruptDocumentError, match=r"not an EPUB book.*plain text"):
        parse_bytes(b"just words", "book.epub")
    with pytest.raises(CorruptDocumentError, match=r"not an RTF document.*plain text"):
        parse_bytes(b"just words", "policy.rtf")
