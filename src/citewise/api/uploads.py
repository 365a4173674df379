"""Receiving uploads: the size limit enforced while the body streams in (and from
`Content-Length` before), safe file names, the type sniffed from the content, and each
file written once to a staging folder with its content hash."""

from __future__ import annotations

import hashlib
import unicodedata
import uuid
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.types import Message

from citewise.errors import DocumentError, InputError, TooLargeError, UnsupportedFormatError
from citewise.ingest.parsers import choose_parser, is_supported, supported_extensions
from citewise.ingest.parsers._sniff import OLE_MAGIC
from citewise.text.sizes import human_size

SNIFF_BYTES = 1 << 16
MAX_FILES = 100


@dataclass(frozen=True, slots=True)
class StagedFile:
    name: str
    path: Path
    size: int
    content_hash: str


def _too_large(limit: int) -> TooLargeError:
    return TooLargeError(f"the upload is over the limit of {human_size(limit)}")


def limited_request(request: Request, limit: int) -> Request:
    """The request whose body raises `TooLargeError` once more than `limit` bytes came in;
    a `Content-Length` over the limit fails before anything is read."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    received = 0
    receive = request.receive

    async def counting() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                raise _too_large(limit)
        return message

    return Request(request.scope, counting)


def safe_name(raw: str | None) -> str:
    """The file's own name without any folder part; control characters and names that are
    only dots are refused."""
    if not raw:
        raise InputError("an uploaded file has no name")
    name = unicodedata.normalize("NFC", raw)
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        raise InputError(f"the file name {raw!r} holds control characters")
    name = PurePosixPath(name.replace("\\", "/")).name.strip()
    if not name.strip(".") or len(name.encode()) > 200:
        raise InputError(f"the file name {raw!r} is not usable (empty, dots only or too long)")
    return name


def check_type(name: str, head: bytes, path: Path) -> None:
    """415 when no parser (built in or from a plugin) reads the extension, or the content is
    not what its parser reads."""
    ext = PurePosixPath(name).suffix.lower()
    if not is_supported(Path(name)):
        kinds = ", ".join(sorted(supported_extensions()))
        raise UnsupportedFormatError(
            f"{name}: unsupported file type {ext or '(no extension)'}; citewise reads {kinds}"
        )
    # containers are judged whole: a ZIP's directory is at its end, an OLE file's anywhere
    data = path.read_bytes() if head.startswith((b"PK", OLE_MAGIC)) else head
    try:
        choose_parser(data, name)
    except UnsupportedFormatError as exc:
        raise UnsupportedFormatError(f"{name}: {exc.message}") from exc
    except DocumentError as exc:  # content contradicts the extension, or is encrypted
        raise UnsupportedFormatError(f"{name}: {exc.message}") from exc


async def stage_file(upload: UploadFile, folder: Path) -> StagedFile:
    """Writes one part to `folder` (a fresh folder per job), hashing it on the way."""
    name = safe_name(upload.filename)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if path.exists():
        raise InputError(f"the file name {name!r} appears twice in this upload")
    digest = hashlib.sha256()
    size = 0
    head = b""
    with path.open("wb") as out:
        while chunk := await upload.read(1 << 20):
            if len(head) < SNIFF_BYTES:
                head += chunk[: SNIFF_BYTES - len(head)]
            digest.update(chunk)
            size += len(chunk)
            out.write(chunk)
    if size == 0:
        path.unlink()
        raise InputError(f"{name}: the file is empty")
    try:
        check_type(name, head, path)
    except UnsupportedFormatError:
        path.unlink()
        raise
    return StagedFile(name, path, size, digest.hexdigest())


def new_job_id() -> str:
    return uuid.uuid4().hex[:16]
