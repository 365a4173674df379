"""Real files Microsoft Office saved, from other projects' test suites (tests/fixtures/office,
licences in its README): Outlook messages, and password-protected legacy Office files that
must be refused as encrypted, not reported as damaged."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from citewise.errors import EncryptedDocumentError
from citewise.ingest.parsers import legacy as legacy_module
from citewise.ingest.parsers import parse_file

OFFICE = Path(__file__).resolve().parents[2] / "fixtures" / "office"


@pytest.mark.parametrize(
    "name",
    [
        "rc4cryptoapi_password.xls",
        "xor_password_123456789012345.xls",
        "rc4cryptoapi_password.doc",
        "rc4cryptoapi_password.ppt",
    ],
)
def test_a_password_protected_legacy_office_file_is_refused_as_encrypted(name: str) -> None:
    with pytest.raises(EncryptedDocumentError, match="encrypted with a password"):
        parse_file(OFFICE / name)


def test_the_same_workbook_without_its_password_reads() -> None:
    doc = parse_file(OFFICE / "rc4cryptoapi_password_plain.xls")
    assert doc.format == "spreadsheet"
    assert [(b.heading_path, b.text) for b in doc.blocks] == [
        (("Sheet1", "row 1"), "lorem ipsum | 3")
    ]


def test_outlook_saved_messages_read_with_headers_and_body() -> None:
    pytest.importorskip("extract_msg")
    quick = parse_file(OFFICE / "quick.msg")
    assert (quick.format, quick.title) == ("msg", "Test the content transformer")
    assert quick.metadata["date"] == "Thu, 14 Jun 2007 09:42:53 +0000"
    assert quick.blocks[0].text.startswith("From: Kevin Roast · To: Kevin Roast")
    assert quick.blocks[1].text == "The quick brown fox jumps over the lazy dog"
    # an older writer ends its strings with NUL: not part of the subject or the text
    simple = parse_file(OFFICE / "simple_test_msg.msg")
    assert simple.title == "test message"
    assert [b.text for b in simple.blocks][1:] == ["This is a test message."]


def test_an_outlook_message_cites_its_attached_message_and_pdf() -> None:
    pytest.importorskip("extract_msg")
    doc = parse_file(OFFICE / "attachment_msg_pdf.msg")
    paths = [b.heading_path for b in doc.blocks]
    assert ("test email", "› Test Attachment") in paths  # the attached message, as a message
    assert "Blah blah blah" in [
        b.text for b in doc.blocks if b.heading_path[1:2] == ("› Test Attachment",)
    ]
    assert any(p[1:2] == ("› smbprn.00009008.KdcPjl.pdf",) for p in paths)


@pytest.mark.skipif(legacy_module.soffice() is None, reason="LibreOffice is not installed")
def test_an_attached_word_97_file_with_tracked_changes_is_read() -> None:
    pytest.importorskip("extract_msg")
    doc = parse_file(OFFICE / "attachment_test_msg.msg")
    attached = [b.text for b in doc.blocks if b.heading_path[1:] == ("› test-unicode.doc",)]
    assert attached[:2] == ["école (00E9)", "euro : € (20AC)"]
    assert "attachments_left_out" not in doc.metadata


def test_docx_text_inside_tracked_insertions_is_read(tmp_path: Path) -> None:
    document = docx.Document()
    paragraph = document.add_paragraph("Berth 4 ")
    paragraph._p.append(
        parse_xml(
            f'<w:ins {nsdecls("w")} w:id="1" w:author="Ada" w:date="2026-03-02T09:00:00Z">'
            "<w:r><w:t>reopens on Monday.</w:t></w:r></w:ins>"
        )
    )
    paragraph._p.append(
        parse_xml(
            f'<w:del {nsdecls("w")} w:id="2" w:author="Ada" w:date="2026-03-02T09:00:00Z">'
            "<w:r><w:delText>stays shut.</w:delText></w:r></w:del>"
        )
    )
    document.save(str(tmp_path / "notice.docx"))
    assert [b.text for b in parse_file(tmp_path / "notice.docx").blocks] == [
        "Berth 4 reopens on Monday."
    ]
