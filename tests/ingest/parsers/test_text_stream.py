"""The streamed text reader yields the paragraphs the whole-file parser makes, whatever the
piece size: pieces cut inside characters, CRLF pairs and blank lines."""

from __future__ import annotations

import io

import pytest

from citewise.errors import UnsupportedFormatError
from citewise.ingest.parsers.text import parse_text, split_paragraphs
from citewise.ingest.parsers.text_stream import open_text_stream, paragraphs


def streamed(data: bytes, piece: int, name: str = "notes.txt") -> list[str]:
    return [b.text for b in open_text_stream(io.BytesIO(data), name, piece_bytes=piece).blocks()]


TEXT = (
    "Überblick der Wartung\r\n\r\nDie Größe des Caches: 5 MB.\r\nZeile zwei — mit Strich.\r\n"
    "\r\n   \r\nKapitel 2 · Einstellungen 🙂 emoji\n\nLast paragraph\rwith old Mac line end.\r\n"
)


@pytest.mark.parametrize("piece", [1, 2, 3, 5, 7, 64, 4096])
def test_every_piece_size_gives_the_whole_file_paragraphs(piece: int) -> None:
    data = TEXT.encode("utf-8")
    assert streamed(data, piece=max(piece, 64)) == split_paragraphs(TEXT)
    pieces = (data[i : i + piece] for i in range(0, len(data), piece))
    decoded = (p.decode("utf-8", errors="strict") for p in _utf8_safe(pieces))
    assert list(paragraphs(decoded, 10_000)) == split_paragraphs(TEXT)


def _utf8_safe(pieces: object) -> list[bytes]:
    """Byte pieces regrouped on character boundaries (what the incremental decoder does)."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    return [decoder.decode(p).encode("utf-8") for p in pieces]  # type: ignore[attr-defined]


def test_a_multibyte_character_split_across_reads_is_decoded_whole() -> None:
    text = "a" * 63 + "é\n\n" + "b" * 58 + "🙂 end\n\nlast"  # é at bytes 63-64, 🙂 at 125-128
    data = text.encode("utf-8")
    assert streamed(data, piece=64) == ["a" * 63 + "é", "b" * 58 + "🙂 end", "last"]


def test_crlf_split_between_two_pieces_is_one_line_break() -> None:
    first = "x" * 63 + "\r"
    data = (first + "\n\r\nsecond").encode("ascii")
    assert len(first) == 64
    assert streamed(data, piece=64) == ["x" * 63, "second"]


def test_a_paragraph_longer_than_a_piece_is_cut_at_line_breaks() -> None:
    lines = [f"2026-11-25 06:{i:02d} service started worker {i}" for i in range(40)]
    data = "\n".join(lines).encode("ascii")
    blocks = streamed(data, piece=256)
    assert all(len(b) <= 256 for b in blocks)
    assert len(blocks) > 1
    assert " ".join(blocks) == " ".join(lines)
    assert all(b.startswith("2026-11-25") for b in blocks)  # cut where a line starts


def test_cp1252_text_is_detected_on_the_first_piece() -> None:
    text = "Café crème à la française, naïve façade.\n\nSecond paragraph: déjà vu.\n" * 50
    data = text.encode("cp1252")
    stream = open_text_stream(io.BytesIO(data), "menu.txt", piece_bytes=512)
    assert stream.encoding == "cp1252"
    whole = [b.text for b in parse_text(data, "menu.txt").blocks]
    assert [b.text for b in stream.blocks()] == whole


def test_utf16_with_bom_is_read_in_pieces() -> None:
    text = "Título\n\nPárrafo uno.\n\nPárrafo dos con ñ.\n" * 20
    data = text.encode("utf-16")  # BOM first
    stream = open_text_stream(io.BytesIO(data), "doc.txt", piece_bytes=65)
    assert stream.title == "Título"
    assert [b.text for b in stream.blocks()] == split_paragraphs(text)
    assert stream.bytes_read == len(data)


def test_binary_content_is_refused_before_anything_is_read_past_the_first_piece() -> None:
    data = b"\x00\x01\x02binary" * 1000
    with pytest.raises(UnsupportedFormatError, match="binary data"):
        open_text_stream(io.BytesIO(data), "blob.log", piece_bytes=128)


def test_title_is_the_first_short_line() -> None:
    stream = open_text_stream(io.BytesIO(b"\n\nRelease notes\n\nBody."), "r.txt")
    assert stream.title == "Release notes"
