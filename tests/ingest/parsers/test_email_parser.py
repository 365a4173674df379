"""E-mail: a message's header line, body and attachments (each read by its own parser and
cited under the message); mailboxes with their threads kept together."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.ingest.parsers import choose_parser, parse_bytes, parse_file
from citewise.ingest.parsers import mbox as mbox_module
from citewise.types.documents import attachment_source
from format_files import eml, mbox, message

NOTES = b"Notes\n\nThe quay wall needs new bolts.\n"


def _repairs() -> object:
    return message(
        "Dock repairs",
        "The crane on pier 4 is fixed.\n\nOn Sunday, Bo wrote:\n> is the crane fixed?\n",
        message_id="<a1@harbour.example>",
        attachments=[
            ("notes.txt", NOTES, "text/plain"),
            ("prices.csv", b"Item,Cost\nBolts,40\n", "text/csv"),
            ("blob.bin", bytes(range(256)), "application/octet-stream"),
        ],
    )


def test_an_eml_gives_headers_body_and_attachments_under_its_subject(tmp_path: Path) -> None:
    doc = parse_file(eml(tmp_path / "repairs.eml", _repairs()))  # type: ignore[arg-type]
    assert (doc.format, doc.title) == ("email", "Dock repairs")
    assert doc.metadata["from"] == "Ada Quill <ada@harbour.example>"
    assert doc.metadata["date"] == "Mon, 02 Mar 2026 09:15:00 +0000"
    assert "blob.bin: unsupported file type .bin" in doc.metadata["attachments_left_out"]
    assert [(b.heading_path, b.text) for b in doc.blocks] == [
        (
            ("Dock repairs",),
            "From: Ada Quill <ada@harbour.example> · To: Crew <crew@harbour.example> · "
            "Date: Mon, 02 Mar 2026 09:15:00 +0000 · Subject: Dock repairs",
        ),
        (("Dock repairs",), "The crane on pier 4 is fixed."),  # the quoted reply left out
        (("Dock repairs", "› notes.txt"), "Notes"),
        (("Dock repairs", "› notes.txt"), "The quay wall needs new bolts."),
        (("Dock repairs", "› prices.csv", "row 2"), "Item: Bolts · Cost: 40"),
    ]


def test_a_message_with_an_empty_plain_part_is_read_from_its_html() -> None:
    msg = message("Menu", "", html="<html><body><h1>Lunch</h1><p>Soup at noon.</p></body></html>")
    msg.get_body(("plain",)).set_content("")  # type: ignore[union-attr]
    msg.make_mixed()
    data = bytes(msg)
    blocks = parse_bytes(data, "menu.eml").blocks
    assert ("Menu", "Lunch") in [b.heading_path for b in blocks]
    assert "Soup at noon." in [b.text for b in blocks]


def test_a_message_attached_to_a_message_is_read_under_its_file_name(tmp_path: Path) -> None:
    inner = message("Original", "The buoy was repainted red.")
    outer = message("Fwd: Original", "See below.", attachments=[
        ("forwarded.eml", bytes(inner), "application/octet-stream")
    ])  # fmt: skip
    blocks = parse_file(eml(tmp_path / "fwd.eml", outer)).blocks
    assert (("Fwd: Original", "› forwarded.eml", "Original"), "The buoy was repainted red.") in [
        (b.heading_path, b.text) for b in blocks
    ]


def test_a_mailbox_keeps_threads_together_each_message_a_section(tmp_path: Path) -> None:
    first = message("Dock repairs", "The crane is fixed.", message_id="<a1@x>")
    lunch = message("Lunch", "Soup at noon.", message_id="<b1@x>")
    reply = message(
        "Re: Dock repairs", "Thanks, paid.", sender="Bo <bo@x>", message_id="<a2@x>",
        in_reply_to="<a1@x>", date="Tue, 03 Mar 2026 10:00:00 +0000",
    )  # fmt: skip
    unlinked = message("RE: dock repairs", "One more thing.", sender="Cy <cy@x>")
    path = mbox(tmp_path / "harbour.mbox", [first, lunch, reply, unlinked])
    assert choose_parser(path.read_bytes(), path.name) == "mbox"
    doc = parse_file(path)
    sections = list(dict.fromkeys(b.heading_path for b in doc.blocks))
    assert sections == [
        ("Dock repairs", "Ada Quill, Mon, 02 Mar 2026 09:15:00 +0000"),
        ("Dock repairs", "Bo, Tue, 03 Mar 2026 10:00:00 +0000"),
        ("Dock repairs", "Cy, Mon, 02 Mar 2026 09:15:00 +0000"),
        ("Lunch", "Ada Quill, Mon, 02 Mar 2026 09:15:00 +0000"),
    ]
    assert doc.blocks[-1].text == "Soup at noon."


def test_an_oversized_message_in_a_mailbox_is_left_out_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = message("Scans", "Attached.", attachments=[("scan.txt", b"x " * 40_000, "text/plain")])
    small = message("Tea", "Tea at four.")
    path = mbox(tmp_path / "box.mbox", [big, small])
    monkeypatch.setattr(mbox_module, "MAX_MESSAGE_BYTES", 20_000)
    doc = parse_file(path)
    assert [b.text for b in doc.blocks][-1] == "Tea at four."
    assert all("Scans" not in b.heading_path for b in doc.blocks)
    assert "too large" in doc.metadata["attachments_left_out"]


def test_an_attachment_is_cited_beside_its_message_file() -> None:
    section = "Budget > Ada, Mon 2 Mar > › fwd.eml > › costs.csv > rows 2–5"
    assert attachment_source("box.mbox", section) == (
        "box.mbox › fwd.eml › costs.csv",
        "Budget > Ada, Mon 2 Mar > rows 2–5",
    )
    assert attachment_source("a.pdf", "Intro > Scope") == ("a.pdf", "Intro > Scope")
    assert attachment_source("a.pdf", "") == ("a.pdf", "")
