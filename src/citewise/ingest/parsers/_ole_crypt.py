"""Whether a legacy (97–2003) Office file is password-protected, read from its OLE streams
with olefile: such files keep their directory readable and encrypt only the streams' content,
so the readers fail later with "cannot detect file format" unless told why first.

- `.xls`: a FilePass record (0x002F) in the workbook globals, right after the first BOF.
- `.doc`: the FIB's fEncrypted flag (bit 8 of the flags word at offset 0x0A of WordDocument).
- `.ppt`: the CurrentUser atom's headerToken 0xF3D1C4DF ("encrypted document").
"""

from __future__ import annotations

import struct
from typing import Any

_FILEPASS = 0x002F
_EOF = 0x000A
_RECORDS_BEFORE_FILEPASS = 16  # FilePass follows BOF at once; a few records of slack
_DOC_ENCRYPTED = 0x0100
_PPT_ENCRYPTED = 0xF3D1C4DF


def legacy_encrypted(ole: Any) -> bool:
    """True when the open `olefile.OleFileIO` is an encrypted .xls, .doc or .ppt."""
    for name in ("Workbook", "Book"):
        if ole.exists(name):
            return _xls_encrypted(ole.openstream(name).read(4096))
    if ole.exists("WordDocument"):
        head = ole.openstream("WordDocument").read(12)
        return len(head) == 12 and bool(struct.unpack_from("<H", head, 0x0A)[0] & _DOC_ENCRYPTED)
    if ole.exists("Current User"):
        atom = ole.openstream("Current User").read(16)
        return len(atom) == 16 and struct.unpack_from("<I", atom, 12)[0] == _PPT_ENCRYPTED
    return False


def _xls_encrypted(stream: bytes) -> bool:
    """A FilePass record among the first records of the workbook stream (BIFF5–8)."""
    at = 0
    for _ in range(_RECORDS_BEFORE_FILEPASS):
        if at + 4 > len(stream):
            return False
        kind, size = struct.unpack_from("<HH", stream, at)
        if kind == _FILEPASS:
            return True
        if kind == _EOF:
            return False
        at += 4 + size
    return False
