"""The newer formats meet the hostile-input rules: zip bombs refused, encryption named,
truncation reported as damage (never a crash), wrong extensions judged by content, and
memory bounded (sheet extents, mailbox messages, attachments, nesting)."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from citewise.errors import CorruptDocumentError, EncryptedDocumentError, TooLargeError
from citewise.ingest.parsers import parse_bytes, parse_file
from format_files import eml, epub, message, odf, odp, ods, odt, outlook, rtf, xlsx
from hardening.hostile_files import docx_bomb

INFLATED = 16 * 2**20
LIMIT = 4 * 2**20


def _bomb(path: Path, first: tuple[str, str], member: str) -> Path:
    """A package of the right kind whose `member` inflates to 16 MB (a few KB on disk)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo(first[0]), first[1], compress_type=zipfile.ZIP_STORED)
        z.writestr(member, b"<x>" + b" " * INFLATED + b"</x>")
    return path


BOMBS: dict[str, Callable[[Path], Path]] = {
    "sheet.xlsx": lambda p: _bomb(p, ("xl/workbook.xml", "<workbook/>"), "xl/worksheets/s1.xml"),
    "sheet.ods": lambda p: _bomb(
        p, ("mimetype", "application/vnd.oasis.opendocument.spreadsheet"), "content.xml"
    ),
    "minutes.odt": lambda p: _bomb(
        p, ("mimetype", "application/vnd.oasis.opendocument.text"), "content.xml"
    ),
    "book.epub": lambda p: _bomb(p, ("mimetype", "application/epub+zip"), "OEBPS/one.xhtml"),
}


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_zip_bombs_of_every_package_format_are_refused(tmp_path: Path, name: str) -> None:
    path = BOMBS[name](tmp_path / name)
    assert path.stat().st_size < 100_000
    with pytest.raises(TooLargeError, match="zip bomb"):
        parse_file(path, max_inflated_bytes=LIMIT)


MAKERS: dict[str, Callable[[Path], Path]] = {
    "shop.xlsx": xlsx,
    "minutes.odt": odt,
    "briefing.odp": odp,
    "keeper.epub": epub,
    "tides.ods": lambda p: ods(p, {"T": [["Port", "Tide"], ["Whitby", "06:12"]] * 200}),
}


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_truncated_packages_are_damaged_not_a_crash(tmp_path: Path, name: str) -> None:
    data = MAKERS[name](tmp_path / name).read_bytes()
    for cut in (len(data) // 2, len(data) - 30):
        with pytest.raises(CorruptDocumentError):
            parse_bytes(data[:cut], name)


def test_truncated_rtf_and_eml_keep_the_text_they_have(tmp_path: Path) -> None:
    data = rtf(tmp_path / "berth.rtf").read_bytes()
    cut = data[: data.index(b"\\pict")]
    assert "The berth fee is 40 pounds per night." in [
        b.text for b in parse_bytes(cut, "x.rtf").blocks
    ]
    mail = bytes(message("Tides", "High tide is at noon.\n\nLow tide at six."))
    blocks = parse_bytes(mail[: mail.index(b"Low tide")], "tides.eml").blocks
    assert blocks[-1].text == "High tide is at noon."


def test_an_encrypted_workbook_is_named_encrypted(tmp_path: Path) -> None:
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504 + "EncryptionInfo".encode("utf-16-le")
    for name in ("budget.xlsx", "budget.xls", "budget.ods"):
        with pytest.raises(EncryptedDocumentError, match="password"):
            parse_bytes(ole, name)


def test_wrong_extensions_are_read_by_what_the_content_is(tmp_path: Path) -> None:
    assert parse_bytes(odt(tmp_path / "a.odt").read_bytes(), "minutes.xlsx").format == "odt"
    assert parse_bytes(epub(tmp_path / "b.epub").read_bytes(), "book.odt").format == "epub"
    assert parse_bytes(rtf(tmp_path / "c.rtf").read_bytes(), "policy.txt").format == "rtf"
    with pytest.raises(CorruptDocumentError, match=r"not an OpenDocument text.*a ZIP archive"):
        path = tmp_path / "minutes.odt"
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("readme.txt", "hello")
        parse_file(path)


def test_an_opendocument_sheet_spanning_millions_of_cells_is_refused_before_loading(
    tmp_path: Path,
) -> None:
    row = (
        '<table:table-row table:number-rows-repeated="100000">'
        '<table:table-cell table:number-columns-repeated="100" office:value-type="string">'
        "<text:p>x</text:p></table:table-cell></table:table-row>"
    )
    body = (
        f'<office:spreadsheet><table:table table:name="S">{row}</table:table></office:spreadsheet>'
    )
    path = odf(tmp_path / "wide.ods", "application/vnd.oasis.opendocument.spreadsheet", body)
    assert path.stat().st_size < 2000
    with pytest.raises(TooLargeError, match="100,000 rows by 100 columns"):
        parse_file(path)


def test_a_workbook_declaring_a_huge_extent_reads_only_its_rows(tmp_path: Path) -> None:
    path = xlsx(tmp_path / "shop.xlsx")
    with zipfile.ZipFile(path) as source:
        parts = {i.filename: source.read(i) for i in source.infolist()}
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = parts[sheet].replace(
        b'<dimension ref="A1:D5"/>', b'<dimension ref="A1:XFD1048576"/>'
    )
    assert b"XFD1048576" in parts[sheet]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in parts.items():
            target.writestr(name, data)
    doc = parse_file(path)  # padded to the extent, this would be 17 billion cells
    assert doc.blocks[0].heading_path == ("Prices", "rows 2–5")


def test_an_attached_zip_bomb_is_left_out_and_the_message_kept(tmp_path: Path) -> None:
    bomb = docx_bomb(tmp_path / "bomb.docx", 300 * 2**20).read_bytes()
    msg = message("Report", "The report is attached.", attachments=[
        ("report.docx", bomb, "application/octet-stream")
    ])  # fmt: skip
    doc = parse_file(eml(tmp_path / "report.eml", msg))
    assert "The report is attached." in [b.text for b in doc.blocks]
    assert "report.docx" in doc.metadata["attachments_left_out"]
    assert "zip bomb" in doc.metadata["attachments_left_out"]


def test_messages_attached_inside_messages_stop_at_a_depth(tmp_path: Path) -> None:
    inner = message("Level 0", "The innermost words.")
    for level in range(1, 7):
        inner = message(f"Level {level}", f"Words at level {level}.", attachments=[
            (f"level{level - 1}.eml", bytes(inner), "application/octet-stream")
        ])  # fmt: skip
    doc = parse_bytes(bytes(inner), "top.eml")
    texts = [b.text for b in doc.blocks]
    assert "Words at level 6." in texts and "The innermost words." not in texts
    assert "attached too deep" in doc.metadata["attachments_left_out"]


def test_a_hostile_outlook_message_is_refused_or_kept_without_its_bomb(tmp_path: Path) -> None:
    pytest.importorskip("extract_msg")
    pytest.importorskip("aspose.email_foss")
    bomb = docx_bomb(tmp_path / "bomb.docx", 300 * 2**20).read_bytes()
    path = outlook(tmp_path / "r.msg", "Report", "The report is attached.",
                   attachments=[("report.docx", bomb)])  # fmt: skip
    doc = parse_file(path)
    assert "The report is attached." in [b.text for b in doc.blocks]
    assert "report.docx" in doc.metadata["attachments_left_out"]
    assert "zip bomb" in doc.metadata["attachments_left_out"]
    data = path.read_bytes()
    assert parse_bytes(data, "report.eml").format == "msg"  # the content decides
    for cut in (len(data) // 2, 2000):
        with pytest.raises(CorruptDocumentError):
            parse_bytes(data[:cut], "r.msg")
