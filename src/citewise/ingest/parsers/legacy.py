"""Legacy Word (.doc) and PowerPoint (.ppt) files, converted by LibreOffice when it is
installed (an optional dependency, see docs/formats.md) and then read by the DOCX or PPTX
parser. LibreOffice runs headless in a temporary profile of its own, in its own process
group, killed whole at the time limit; its output passes the zip-bomb check like an upload.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path

from citewise.errors import CorruptDocumentError, UnsupportedFormatError
from citewise.ingest.parsers._archive import ArchiveLimits, check_archive
from citewise.ingest.parsers._sniff import ole_kind
from citewise.types import ParsedDocument

TIMEOUT_S = 120
_TARGET = {"doc": "docx", "ppt": "pptx"}
MISSING = (
    "a legacy Office file (.doc/.ppt); install LibreOffice to read it (docs/formats.md), "
    "or save it as .docx or .pptx"
)


def soffice() -> str | None:
    """LibreOffice's command, if installed."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def convert(data: bytes, kind: str, *, timeout_s: float = TIMEOUT_S) -> bytes:
    """The file converted to its OOXML twin (DOCX for "doc", PPTX for "ppt")."""
    command = soffice()
    if command is None:
        raise UnsupportedFormatError(MISSING)
    target = _TARGET[kind]
    with tempfile.TemporaryDirectory(prefix="citewise-office-") as folder:
        root = Path(folder)
        source = root / f"input.{kind}"
        source.write_bytes(data)
        args = [
            command, f"-env:UserInstallation={(root / 'profile').as_uri()}", "--headless",
            "--norestore", "--nologo", "--nodefault", "--nolockcheck",
            "--convert-to", target, "--outdir", str(root / "out"), str(source),
        ]  # fmt: skip
        env = {"HOME": folder, "PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8"}
        with subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
            start_new_session=True, cwd=folder,
        ) as process:  # fmt: skip
            try:
                output, _ = process.communicate(timeout=timeout_s)
            except subprocess.TimeoutExpired as exc:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                raise CorruptDocumentError(
                    f"LibreOffice did not convert the file within {timeout_s:g} s"
                ) from exc
        converted = root / "out" / f"input.{target}"
        if process.returncode != 0 or not converted.exists():
            said = output.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
            raise CorruptDocumentError(f"LibreOffice could not convert the file ({said[0]})")
        return converted.read_bytes()


def parse_legacy(data: bytes, name: str, *, max_inflated: int = 256 * 2**20) -> ParsedDocument:
    kind = ole_kind(data)
    if kind not in _TARGET:
        raise UnsupportedFormatError(MISSING)
    converted = convert(data, kind)
    check_archive(converted, ArchiveLimits(max_inflated=max_inflated))
    if kind == "doc":
        from citewise.ingest.parsers.docx import parse_docx

        doc = parse_docx(converted, name)
    else:
        from citewise.ingest.parsers.pptx import parse_pptx

        doc = parse_pptx(converted, name)
    return replace(doc, format=kind)
