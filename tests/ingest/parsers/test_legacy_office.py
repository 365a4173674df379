"""Legacy .doc and .ppt: converted by LibreOffice (headless, temporary profile, time limit)
when it is installed, else refused with a message that says how to read them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import docx
import pptx
import pytest

from citewise.errors import CorruptDocumentError, UnsupportedFormatError
from citewise.ingest.parsers import choose_parser, parse_bytes, parse_file
from citewise.ingest.parsers import legacy as legacy_module
from format_files import xlsx

needs_libreoffice = pytest.mark.skipif(
    legacy_module.soffice() is None,
    reason="LibreOffice is not installed (optional: install.sh adds libreoffice-*-nogui)",
)


def _legacy(tmp_path: Path, kind: str) -> Path:
    """A real Word 97 / PowerPoint 97 / Excel 97 file, saved by LibreOffice from a file
    python-docx, python-pptx or XlsxWriter wrote."""
    if kind == "xls":
        source = xlsx(tmp_path / "shop.xlsx")
    elif kind == "doc":
        document = docx.Document()
        document.add_heading("Mooring rules", 1)
        document.add_paragraph("Boats must be moored with two lines after sunset.")
        document.save(str(tmp_path / "rules.docx"))
        source = tmp_path / "rules.docx"
    else:
        deck = pptx.Presentation()
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = "Night watch"
        slide.placeholders[1].text = "The watch changes at midnight."
        deck.save(str(tmp_path / "watch.pptx"))
        source = tmp_path / "watch.pptx"
    command = legacy_module.soffice()
    assert command is not None
    profile = (tmp_path / "profile").as_uri()
    subprocess.run(
        [command, f"-env:UserInstallation={profile}", "--headless", "--convert-to", kind,
         "--outdir", str(tmp_path / "legacy"), str(source)],
        check=True, capture_output=True, timeout=180,
    )  # fmt: skip
    converted = tmp_path / "legacy" / f"{source.stem}.{kind}"
    if not converted.exists():  # Calc is a package of its own (libreoffice-calc-nogui)
        pytest.skip(f"this LibreOffice cannot write .{kind}")
    return converted


@pytest.mark.slow
@needs_libreoffice
def test_a_real_xls_is_read_by_calamine_without_libreoffice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _legacy(tmp_path, "xls").read_bytes()
    monkeypatch.setattr(legacy_module, "soffice", lambda: None)  # calamine reads BIFF itself
    doc = parse_bytes(data, "shop.xls")
    assert doc.format == "spreadsheet"
    blocks = {b.heading_path: b.text for b in doc.blocks}
    assert list(blocks) == [("Prices", "rows 2–5"), ("Staff", "row 2")]  # hidden, chart left out
    assert (
        "Product: Otter plush · Region: South · Price: 24 · Stock: 8"
        in blocks[("Prices", "rows 2–5")]
    )
    assert "Product: Total · Price: 29.75" in blocks[("Prices", "rows 2–5")]  # the formula's value
    with pytest.raises(CorruptDocumentError, match="damaged"):
        parse_bytes(data[: len(data) // 2], "shop.xls")


@pytest.mark.slow
@needs_libreoffice
def test_a_doc_and_a_ppt_are_converted_and_read(tmp_path: Path) -> None:
    doc = parse_file(_legacy(tmp_path, "doc"))
    assert (doc.format, doc.title) == ("doc", "Mooring rules")
    assert [(b.heading_path, b.text) for b in doc.blocks] == [
        (("Mooring rules",), "Boats must be moored with two lines after sunset.")
    ]
    deck = parse_file(_legacy(tmp_path, "ppt"))
    assert (deck.format, deck.page_count) == ("ppt", 1)
    assert [(b.heading_path, b.page, b.text) for b in deck.blocks] == [
        (("Night watch",), 1, "The watch changes at midnight.")
    ]


@pytest.mark.slow
@needs_libreoffice
def test_a_conversion_over_the_time_limit_is_stopped(tmp_path: Path) -> None:
    data = _legacy(tmp_path, "doc").read_bytes()
    with pytest.raises(CorruptDocumentError, match="did not convert the file within"):
        legacy_module.convert(data, "doc", timeout_s=0.05)


def test_without_libreoffice_a_legacy_file_gets_a_clear_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    entry = "WordDocument\x00".encode("utf-16-le").ljust(64, b"\x00") + b"\x1a\x00"
    word = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504 + entry
    with pytest.raises(UnsupportedFormatError, match=r"install LibreOffice .* save it as \.docx"):
        parse_bytes(word, "minutes.doc")
    # the name in a file's bytes is not a directory entry: with no directory it is damaged
    other = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600 + "WordDocument".encode("utf-16-le")
    with pytest.raises(CorruptDocumentError, match="damaged: its OLE directory cannot be read"):
        choose_parser(other, "thing.doc")
