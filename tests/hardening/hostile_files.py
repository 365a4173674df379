"""Hostile files made at run time (shared by the hardening tests and
benchmarks/hostile_input.py): zip bombs, deep HTML, huge text, odd names, symlink loops."""

from __future__ import annotations

import io
import os
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path

import docx
from reportlab.pdfgen import canvas

_DOCUMENT_XML = "word/document.xml"
_XML_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    b"<w:body><w:p><w:r><w:t>"
)
_XML_TAIL = b"</w:t></w:r></w:p></w:body></w:document>"


def good_docx(path: Path, words: str) -> Path:
    document = docx.Document()
    document.add_heading("Field notes", level=1)
    document.add_paragraph(words)
    document.save(str(path))
    return path


def docx_bomb(path: Path, inflated: int, *, lie: bool = False) -> Path:
    """A DOCX whose word/document.xml inflates to `inflated` bytes (~1/1000 on disk). With
    `lie`, the headers declare a tiny inflated size."""
    template = io.BytesIO()
    docx.Document().save(template)
    with zipfile.ZipFile(template) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            if info.filename != _DOCUMENT_XML:
                target.writestr(info, source.read(info), zipfile.ZIP_DEFLATED)
        member = zipfile.ZipInfo(_DOCUMENT_XML)
        member.compress_type = zipfile.ZIP_DEFLATED
        with target.open(member, "w") as out:
            out.write(_XML_HEAD)
            block = b"A" * (1 << 20)
            for _ in range(inflated // len(block)):
                out.write(block)
            out.write(_XML_TAIL)
    if lie:
        _declare_size(path, _DOCUMENT_XML, 4096)
    return path


def _declare_size(path: Path, name: str, size: int) -> None:
    """Overwrites a member's uncompressed size in its local header and central entry."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        info = archive.getinfo(name)
    struct.pack_into("<L", data, info.header_offset + 22, size)
    encoded = name.encode()
    pos = data.find(b"PK\x01\x02")
    while pos >= 0:
        name_len = struct.unpack_from("<H", data, pos + 28)[0]
        if bytes(data[pos + 46 : pos + 46 + name_len]) == encoded:
            struct.pack_into("<L", data, pos + 24, size)
            break
        pos = data.find(b"PK\x01\x02", pos + 4)
    path.write_bytes(bytes(data))


def many_members_zip(path: Path, members: int) -> Path:
    """A DOCX-named archive with a huge number of tiny members."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(_DOCUMENT_XML, _XML_HEAD + b"x" + _XML_TAIL)
        for i in range(members):
            archive.writestr(f"m/{i}", b"")
    return path


def deep_html(path: Path, depth: int) -> Path:
    body = "<div>" * depth + "<p>The deepest paragraph mentions quokkas.</p>" + "</div>" * depth
    top = "<p>The page starts with a shallow paragraph about wombats.</p>"
    page = f"<html><body><h1>Deep</h1>{top}{body}</body></html>"
    path.write_text(page, encoding="utf-8")
    return path


def big_text(path: Path, size: int) -> Path:
    line = b"Plain words in a very large log file that nobody should load whole.\n"
    with path.open("wb") as out:
        for _ in range(size // len(line)):
            out.write(line)
    return path


def cp1252_text(path: Path) -> Path:
    text = (
        "Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e: the na\u00efve r\u00e9sum\u00e9 "
        "of the ma\u00eetre d'h\u00f4tel."
    )
    path.write_bytes(("Menu\n\n" + text + "\n").encode("cp1252"))
    return path


def many_pages_pdf(path: Path, pages: int) -> Path:
    c = canvas.Canvas(str(path))
    for page in range(1, pages + 1):
        c.setFont("Helvetica", 11)
        c.drawString(72, 700, f"Ledger page {page}: entries for account {page * 7}.")
        c.showPage()
    c.save()
    return path


def huge_image_pdf(path: Path) -> Path:
    """A one-page PDF holding a 6000 x 6000 image (a big bitmap once decoded) and a line."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    picture = io.BytesIO()
    Image.new("L", (6000, 6000), 200).save(picture, format="PNG")
    c = canvas.Canvas(str(path))
    c.drawImage(ImageReader(io.BytesIO(picture.getvalue())), 0, 0, 595, 842)
    c.setFont("Helvetica", 12)
    c.drawString(72, 760, "The poster shows the harbour at dawn.")
    c.showPage()
    c.save()
    return path


def symlink_loop(folder: Path) -> Path:
    a, b = folder / "loop-a.txt", folder / "loop-b.txt"
    a.symlink_to(b)
    b.symlink_to(a)
    return a


HostileMaker = Callable[[Path], Path]


def hostile_folder(
    root: Path, *, bomb_bytes: int = 2**30, text_bytes: int = 200 * 2**20
) -> dict[str, str]:
    """Writes good and hostile files under `root`; returns {source: kind} where kind is
    'good' (must be ingested) or 'bad' (must fail or be skipped with a reason). The large
    log (`text_bytes`) is read as a stream."""
    root.mkdir(parents=True, exist_ok=True)
    kinds: dict[str, str] = {}

    def good(name: str, text: str) -> None:
        (root / name).write_text(text, encoding="utf-8")
        kinds[name] = "good"

    good("otters.md", "# Otters\n\nSea otters hold hands while they sleep in kelp beds.\n")
    good("ferns.txt", "Ferns\n\nFerns reproduce with spores instead of seeds.\n")
    good_docx(root / "notes.docx", "Axolotls regrow lost limbs within weeks.")
    kinds["notes.docx"] = "good"
    cp1252_text(root / "menu.txt")
    kinds["menu.txt"] = "good"
    many_pages_pdf(root / "ledger.pdf", 2000)
    kinds["ledger.pdf"] = "good"
    huge_image_pdf(root / "poster.pdf")
    kinds["poster.pdf"] = "good"
    deep_html(root / "deep.html", 50_000)
    kinds["deep.html"] = "good"
    good("we\x1bird\nname.txt", "A file whose name holds control characters.\n")
    kinds["we\x1bird\nname.txt"] = "bad"
    docx_bomb(root / "bomb.docx", bomb_bytes)
    kinds["bomb.docx"] = "bad"
    docx_bomb(root / "liar.docx", 300 * 2**20, lie=True)
    kinds["liar.docx"] = "bad"
    many_members_zip(root / "swarm.docx", 70_000)
    kinds["swarm.docx"] = "bad"
    big_text(root / "huge.log", text_bytes)
    kinds["huge.log"] = "good"
    (root / "image.pdf").write_text("this is plain text behind a .pdf name\n", encoding="utf-8")
    kinds["image.pdf"] = "bad"
    symlink_loop(root)
    kinds["loop-a.txt"] = "bad"
    kinds["loop-b.txt"] = "bad"
    os.sync()
    return kinds
