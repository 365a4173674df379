"""Hostile files get a clear per-file reason, the rest of the folder is ingested, and the
process memory stays bounded (a 1 GB zip bomb among them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from citewise.errors import CorruptDocumentError, TooLargeError
from citewise.ingest.discovery import discover
from citewise.ingest.parsers import is_supported, parse_file
from citewise.ingest.parsers._archive import ArchiveLimits, check_archive
from hardening.hostile_files import (
    deep_html,
    docx_bomb,
    good_docx,
    hostile_folder,
    many_members_zip,
    symlink_loop,
)

SMALL = ArchiveLimits(max_inflated=8 * 2**20)


def test_archive_declaring_a_huge_inflated_size_is_refused(tmp_path: Path) -> None:
    bomb = docx_bomb(tmp_path / "bomb.docx", 16 * 2**20)
    with pytest.raises(TooLargeError, match=r"declares 1[67](\.\d)? MiB once inflated"):
        check_archive(bomb.read_bytes(), SMALL)


def test_archive_whose_headers_lie_is_stopped_while_inflating(tmp_path: Path) -> None:
    liar = docx_bomb(tmp_path / "liar.docx", 16 * 2**20, lie=True)
    with pytest.raises(TooLargeError, match="inflates past its declared size"):
        check_archive(liar.read_bytes(), SMALL)


@pytest.mark.parametrize("members", [10_050, 70_000])  # 70,000: a ZIP64 end record
def test_archive_with_too_many_members_is_refused_before_listing_them(
    tmp_path: Path, members: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    swarm = many_members_zip(tmp_path / "swarm.docx", members)

    def listed(*args: object, **kwargs: object) -> None:
        raise AssertionError("the central directory was read")

    monkeypatch.setattr(zipfile.ZipFile, "__init__", listed)
    with pytest.raises(TooLargeError, match=f"{members + 1} files"):
        parse_file(swarm)


def test_a_normal_docx_passes_the_archive_check(tmp_path: Path) -> None:
    doc = good_docx(tmp_path / "ok.docx", "Axolotls regrow lost limbs.")
    check_archive(doc.read_bytes(), SMALL)
    assert "Axolotls" in parse_file(doc).blocks[-1].text


def test_truncated_archive_member_is_corrupt_not_a_crash(tmp_path: Path) -> None:
    doc = good_docx(tmp_path / "ok.docx", "Some words. " * 2000).read_bytes()
    with pytest.raises(CorruptDocumentError):
        check_archive(doc[: len(doc) // 2] + doc[-22:])


def test_parse_file_applies_the_inflated_size_limit(tmp_path: Path) -> None:
    bomb = docx_bomb(tmp_path / "bomb.docx", 16 * 2**20)
    with pytest.raises(TooLargeError, match="zip bomb"):
        parse_file(bomb, max_inflated_bytes=4 * 2**20)


def _png_header(width: int, height: int) -> bytes:
    """A PNG that announces a huge picture in a few bytes (no pixel data follows)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body)
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


def test_image_announcing_a_billion_pixels_is_refused_before_decoding(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    path.write_bytes(_png_header(40_000, 30_000))
    with pytest.raises(TooLargeError, match="too large to decode"):
        parse_file(path, ocr="tesseract")
    path.write_bytes(_png_header(10_000, 9_000))  # under PIL's own limit, over ours
    with pytest.raises(TooLargeError, match="10000 x 9000 pixels, over the limit of 80 million"):
        parse_file(path, ocr="tesseract")


def test_deeply_nested_html_keeps_its_shallow_text(tmp_path: Path) -> None:
    page = parse_file(deep_html(tmp_path / "deep.html", 20_000))
    assert any("wombats" in b.text for b in page.blocks)


def test_names_with_control_characters_and_symlink_loops_are_skipped_with_reasons(
    tmp_path: Path,
) -> None:
    (tmp_path / "plain.txt").write_text("fine\n", encoding="utf-8")
    (tmp_path / "bad\x1b[2Jname.txt").write_text("hidden\n", encoding="utf-8")
    symlink_loop(tmp_path)
    found, skipped = discover([tmp_path], is_supported)
    assert [c.source for c in found] == ["plain.txt"]
    reasons = {o.source: o.reason for o in skipped}
    assert "control characters" in reasons["bad\\x1b[2Jname.txt"]
    assert "symlink loop" in reasons["loop-a.txt"] and "symlink loop" in reasons["loop-b.txt"]


# The folder is ingested in a child process so its peak RSS is the ingest's alone: VmHWM of
# the process image (ru_maxrss would also count the forked parent's memory before exec).
CHILD = textwrap.dedent(
    r"""
    import json, re, sys
    from citewise.assistant import Assistant
    with Assistant(data_dir=sys.argv[2], embedder="hashing") as a:
        report = a.ingest([sys.argv[1]])
        found = {q: [h.source for h in a.search(q, k=3, mode="keyword").hits]
                 for q in ("otters", "axolotls", "ledger page 1999", "wombats", "harbour",
                           "nobody should load")}
    print(json.dumps({
        "outcomes": {o.source: [o.status, o.reason] for o in report.outcomes},
        "found": found,
        "peak_mb": int(re.search(r"VmHWM:\s+(\d+)", open("/proc/self/status").read())[1]) / 1024,
    }))
    """
)


@pytest.mark.slow
def test_hostile_folder_ingests_every_good_file_in_bounded_memory(tmp_path: Path) -> None:
    # the large log is read as a stream: small here, streamed from 1 MB on
    kinds = hostile_folder(tmp_path / "docs", bomb_bytes=2**30, text_bytes=3 * 2**20)
    assert (tmp_path / "docs" / "bomb.docx").stat().st_size < 2 * 2**20
    run = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "docs"), str(tmp_path / "data")],
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join(sys.path),
            "CITEWISE_STREAM_TEXT_ABOVE_BYTES": str(2**20),
        },
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    result = json.loads(run.stdout.strip().splitlines()[-1])
    outcomes = result["outcomes"]
    for source, kind in kinds.items():
        shown = source.replace("\x1b", "\\x1b").replace("\n", "\\n")
        status, reason = outcomes[shown]
        if kind == "good":
            assert status == "ingested", (source, reason)
        else:
            assert status in {"failed", "skipped"} and reason, source
    assert "zip bomb" in outcomes["bomb.docx"][1] and "zip bomb" in outcomes["liar.docx"][1]
    assert result["found"]["otters"][0] == "otters.md"
    assert result["found"]["axolotls"][0] == "notes.docx"
    assert result["found"]["ledger page 1999"][0] == "ledger.pdf"
    assert result["found"]["wombats"][0] == "deep.html"
    assert result["found"]["harbour"][0] == "poster.pdf"
    assert result["found"]["nobody should load"][0] == "huge.log"
    assert outcomes["huge.log"] == ["ingested", "read as a stream"]
    assert result["peak_mb"] < 600, result["peak_mb"]


def test_pptx_bomb_is_refused_like_a_docx_bomb(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "deck.pptx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("ppt/presentation.xml", b"<p:presentation/>" + b" " * (16 * 2**20))
    with pytest.raises(TooLargeError, match="zip bomb"):
        parse_file(path, max_inflated_bytes=4 * 2**20)
