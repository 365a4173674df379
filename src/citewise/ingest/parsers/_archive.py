"""Zip-bomb guard for ZIP-based documents (DOCX, PPTX): the declared sizes are checked first,
then every member is inflated as a stream and counted, without trusting its headers, so an
archive whose headers lie is stopped at the cap too. Memory stays at one block per member."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import dataclass

from citewise.errors import CorruptDocumentError, TooLargeError
from citewise.text.sizes import human_size

DEFAULT_MAX_INFLATED = 256 * 2**20
DEFAULT_MAX_MEMBERS = 10_000
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")  # the fixed 30 bytes before each member
_LOCAL_MAGIC = b"PK\x03\x04"
_END_MAGIC = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_END = b"PK\x06\x06"
_END_SEARCH = 65_536 + 22  # the end record sits within the last 64 KB comment + its size
_IN_BLOCK = 64 * 1024
_OUT_BLOCK = 1 << 20


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    max_inflated: int = DEFAULT_MAX_INFLATED  # all members together, once inflated
    max_members: int = DEFAULT_MAX_MEMBERS


def _mb(size: int) -> str:
    return human_size(size)


def _over(what: str, limits: ArchiveLimits) -> TooLargeError:
    return TooLargeError(
        f"the archive {what}, over the limit of {_mb(limits.max_inflated)} (a zip bomb?)"
    )


def check_member_count(data: bytes, limits: ArchiveLimits | None = None) -> None:
    """Refuses an archive whose end record announces too many members, before the central
    directory is read into memory (a million tiny entries would cost gigabytes)."""
    limits = limits or ArchiveLimits()
    end = data.rfind(_END_MAGIC, max(0, len(data) - _END_SEARCH))
    if end < 0 or end + 22 > len(data):
        return  # zipfile reports the damage itself
    (entries,) = struct.unpack_from("<H", data, end + 10)
    if entries == 0xFFFF:  # a ZIP64 archive: the count is in its own end record
        entries = _zip64_entries(data, end)
    if entries > limits.max_members:
        raise TooLargeError(
            f"the archive holds {entries} files, over the limit of {limits.max_members}"
        )


def _zip64_entries(data: bytes, end: int) -> int:
    """The member count of a ZIP64 end record, located just before the classic one."""
    locator = end - 20
    if locator < 0 or data[locator : locator + 4] != _ZIP64_LOCATOR:
        return 0
    (record,) = struct.unpack_from("<Q", data, locator + 8)
    if record + 40 > len(data) or data[record : record + 4] != _ZIP64_END:
        return 0
    (entries,) = struct.unpack_from("<Q", data, record + 32)
    return int(entries)


def check_archive(data: bytes, limits: ArchiveLimits | None = None) -> None:
    """Raises TooLargeError when the archive has too many members or inflates past the cap
    (by its declared sizes or by the bytes it really inflates to), CorruptDocumentError when
    a member cannot be inflated."""
    limits = limits or ArchiveLimits()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise CorruptDocumentError(f"the ZIP container is damaged ({exc})") from exc
    if len(members) > limits.max_members:
        raise TooLargeError(
            f"the archive holds {len(members)} files, over the limit of {limits.max_members}"
        )
    declared = sum(m.file_size for m in members)
    if declared > limits.max_inflated:
        raise _over(f"declares {_mb(declared)} once inflated", limits)
    view = memoryview(data)
    total = 0
    for member in members:
        total += _inflated_size(view, member, limits.max_inflated - total)
        if total > limits.max_inflated:
            raise _over("inflates past its declared size", limits)


def _inflated_size(data: memoryview, member: zipfile.ZipInfo, budget: int) -> int:
    """The member's real inflated size, or a number above `budget` as soon as it exceeds it."""
    start = _data_start(data, member)
    if member.compress_type == zipfile.ZIP_STORED:
        return min(member.compress_size, len(data) - start)
    if member.compress_type != zipfile.ZIP_DEFLATED:
        raise CorruptDocumentError(
            f"the archive member {member.filename!r} uses an unsupported compression "
            f"method ({member.compress_type})"
        )
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    size = 0
    pos = start
    try:
        while not inflater.eof and pos < len(data):
            pending: bytes | memoryview = data[pos : pos + _IN_BLOCK]
            pos += _IN_BLOCK
            while pending and not inflater.eof:
                size += len(inflater.decompress(pending, _OUT_BLOCK))
                if size > budget:
                    return size
                pending = inflater.unconsumed_tail
    except zlib.error as exc:
        raise CorruptDocumentError(
            f"the archive member {member.filename!r} cannot be inflated ({exc})"
        ) from exc
    return size


def _data_start(data: memoryview, member: zipfile.ZipInfo) -> int:
    offset = member.header_offset
    header = bytes(data[offset : offset + _LOCAL_HEADER.size])
    if len(header) < _LOCAL_HEADER.size or not header.startswith(_LOCAL_MAGIC):
        raise CorruptDocumentError(f"the archive member {member.filename!r} has no local header")
    fields = _LOCAL_HEADER.unpack(header)
    name_len, extra_len = fields[-2], fields[-1]
    return int(offset + _LOCAL_HEADER.size + name_len + extra_len)
