"""Outlook .msg: read by extract-msg (the optional `outlook` extra) like an .eml. The files
are written by aspose-email-foss, an MSG writer independent of the reader under test."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.errors import (
    CorruptDocumentError,
    EncryptedDocumentError,
    UnsupportedFormatError,
)
from citewise.ingest.parsers import _outlook, choose_parser, parse_bytes, parse_file
from citewise.ingest.parsers._sniff import ole_kind
from format_files import build_outlook, outlook

pytest.importorskip("extract_msg")
pytest.importorskip("aspose.email_foss")

COSTS = b"Item,Cost\nCrane cable,1200\nPaint,80\n"


def _ole(**streams: bytes) -> bytes:
    """A small OLE file with these streams at its root (CFB writer of aspose-email-foss)."""
    from aspose.email_foss.cfb.writer import CFBDocument, CFBStorage, CFBStream, CFBWriter

    root = CFBStorage("Root Entry")
    for name, data in streams.items():
        root.add_stream(CFBStream(name, data))
    return bytes(CFBWriter.to_bytes(CFBDocument(root)))


def test_a_msg_gives_headers_body_and_attachments_cited_under_it(tmp_path: Path) -> None:
    path = outlook(
        tmp_path / "repairs.msg",
        "Dock repairs",
        "The crane on berth 4 is fixed.\n\nOn Sunday, Bo wrote:\n> is it fixed?\n",
        attachments=[("costs.csv", COSTS), ("scan.bin", bytes(range(256)))],
    )
    doc = parse_file(path)
    assert (doc.format, doc.title) == ("msg", "Dock repairs")
    assert doc.metadata["from"] == "Ada Quill"
    assert doc.metadata["date"] == "Mon, 02 Mar 2026 09:15:00 +0000"
    assert "scan.bin: unsupported file type .bin" in doc.metadata["attachments_left_out"]
    blocks = [(b.heading_path, b.text) for b in doc.blocks]
    assert blocks[0][1].startswith("From: Ada Quill · To: Crew <crew@harbour.example> · Date:")
    assert (("Dock repairs",), "The crane on berth 4 is fixed.") in blocks
    assert not any("is it fixed" in text for _, text in blocks)  # the quoted reply
    assert (("Dock repairs", "› costs.csv", "rows 2–3")) in [p for p, _ in blocks]
    assert any("Item: Crane cable · Cost: 1200" in text for _, text in blocks)


def test_a_msg_with_only_an_html_body_is_read_by_the_html_parser(tmp_path: Path) -> None:
    html = "<html><body><h1>Lunch</h1><p>Soup at noon.</p></body></html>"
    doc = parse_file(outlook(tmp_path / "menu.msg", "Menu", "", html=html))
    assert ("Menu", "Lunch") in [b.heading_path for b in doc.blocks]
    assert "Soup at noon." in [b.text for b in doc.blocks]


def test_an_attached_outlook_message_is_read_as_a_message(tmp_path: Path) -> None:
    inner = build_outlook("Original", "The buoy was repainted red.")
    path = outlook(tmp_path / "fwd.msg", "Fwd: Original", "See below.", embedded=[("buoy", inner)])
    doc = parse_file(path)
    assert (("Fwd: Original", "› buoy"), "The buoy was repainted red.") in [
        (b.heading_path, b.text) for b in doc.blocks
    ]


def test_a_msg_holding_an_encrypted_file_or_a_workbook_is_still_a_message(tmp_path: Path) -> None:
    locked = _ole(EncryptionInfo=b"\x04\x00\x04\x00" + bytes(60), EncryptedPackage=bytes(600))
    sheet = _ole(Workbook=bytes(700))
    path = outlook(
        tmp_path / "x.msg",
        "Files",
        "Two files.",
        attachments=[("a.docx", locked), ("b.xls", sheet)],
    )
    data = path.read_bytes()
    assert (ole_kind(locked), ole_kind(sheet)) == ("ole", "xls")
    assert ole_kind(data) == "msg"
    assert choose_parser(data, "x.msg") == "msg"
    doc = parse_bytes(data, "x.msg")
    assert "a.docx: the Office file is encrypted" in doc.metadata["attachments_left_out"]


def test_an_encrypted_or_unknown_item_is_refused_and_a_contact_read(tmp_path: Path) -> None:
    envelope = [("smime.p7m", b"0\x82\x01\x00" + bytes(256))]  # as Outlook saves one
    sealed = outlook(
        tmp_path / "s.msg", "Sealed", "", attachments=envelope, message_class="IPM.Note.SMIME"
    )
    with pytest.raises(EncryptedDocumentError, match="encrypted"):
        parse_file(sealed)
    contact = outlook(
        tmp_path / "c.msg", "Ada Quill", "Harbour master.", message_class="IPM.Contact"
    )
    assert "Harbour master." in [b.text for b in parse_file(contact).blocks]
    odd = outlook(tmp_path / "o.msg", "Odd", "x", message_class="Fictional.Item")
    with pytest.raises(UnsupportedFormatError, match="not a message"):
        parse_file(odd)


def test_a_damaged_or_mislabelled_msg_fails_clearly(tmp_path: Path) -> None:
    data = outlook(tmp_path / "t.msg", "Cut", "The crane is fixed.").read_bytes()
    with pytest.raises(CorruptDocumentError, match="damaged: its OLE directory"):
        parse_bytes(data[: len(data) // 3], "cut.msg")
    with pytest.raises(CorruptDocumentError, match="not an Outlook message"):
        parse_bytes(b"just some text\n", "notes.msg")


def test_without_extract_msg_a_msg_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = outlook(tmp_path / "m.msg", "Hello", "Body.").read_bytes()
    monkeypatch.setattr(_outlook, "available", lambda: False)
    with pytest.raises(UnsupportedFormatError, match=r"citewise\[outlook\]"):
        choose_parser(data, "m.msg")
