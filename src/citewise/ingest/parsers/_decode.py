"""Bytes → text for the text-like formats: BOM, then UTF-8, then a plausible Windows-1252
reading, then charset-normalizer's best guess; binary content is refused."""

from __future__ import annotations

import codecs
import re

from charset_normalizer import from_bytes

from citewise.errors import UnsupportedFormatError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
# a non-letter, non-ASCII character glued between letters: how a wrong 8-bit code page shows
_GLUED_SYMBOL = re.compile(r"(?<=[^\W\d_])[^\w\s\x00-\x7f](?=[^\W\d_])")
_WORD = re.compile(r"[^\W\d_]{2,}")
_SAMPLE = 64 * 1024


def bom_encoding(data: bytes) -> tuple[str, int] | None:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, len(bom)
    return None


def looks_binary(data: bytes) -> bool:
    """NUL bytes (without a UTF-16/32 BOM) or many control characters mean binary."""
    sample = data[:_SAMPLE]
    if bom_encoding(sample) is not None:
        return False
    if b"\x00" in sample:
        return True
    controls = len(_CONTROL.findall(sample.decode("latin-1")))
    return controls > max(2, len(sample) // 100)


def plausible_western(text: str) -> bool:
    """Whether a Windows-1252 reading looks like real Western text: no control characters,
    words made only of accented letters are rare (a Cyrillic or Greek code page read as
    1252 gives exactly those), and no symbols glued inside words."""
    if _CONTROL.search(text):
        return False
    words = _WORD.findall(text)
    foreign = sum(1 for w in words if not any(c.isascii() for c in w))
    if words and foreign / len(words) > 0.2:
        return False
    return not _GLUED_SYMBOL.search(text)


def decode_text(data: bytes, name: str = "") -> str:
    """The text of `data`. Raises UnsupportedFormatError for binary content."""
    bom = bom_encoding(data)
    if bom is not None:
        encoding, skip = bom
        return data[skip:].decode(encoding, errors="replace")
    if looks_binary(data):
        raise UnsupportedFormatError(_binary_message(name))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        western = data.decode("cp1252")
    except UnicodeDecodeError:
        western = ""
    if western and plausible_western(western):
        return western
    best = from_bytes(data).best()
    if best is None:
        raise UnsupportedFormatError(_binary_message(name))
    return str(best)


def prefix_encoding(prefix: bytes, name: str = "") -> tuple[str, int]:
    """(encoding, BOM length) for a file read as a stream, judged from its first bytes by
    the rules of `decode_text`; a multibyte character cut at the prefix's end is allowed.
    Raises UnsupportedFormatError for binary content."""
    bom = bom_encoding(prefix)
    if bom is not None:
        return bom
    if looks_binary(prefix):
        raise UnsupportedFormatError(_binary_message(name))
    try:
        codecs.getincrementaldecoder("utf-8")().decode(prefix, final=False)
        return "utf-8", 0
    except UnicodeDecodeError:
        pass
    try:
        western = prefix.decode("cp1252")
    except UnicodeDecodeError:
        western = ""
    if western and plausible_western(western):
        return "cp1252", 0
    best = from_bytes(prefix).best()
    if best is None:
        raise UnsupportedFormatError(_binary_message(name))
    return best.encoding, 0


def _binary_message(name: str) -> str:
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    where = f"a .{suffix} file" if suffix else "the file"
    return f"{where} holds binary data, not text; this file type is not supported"
