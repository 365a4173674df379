"""A data directory in one file and back: `snapshot` copies every SQLite database with
SQLite's online backup API (a consistent state while other processes read and write it),
then every other file a user would lose (kept originals and uploads, the token secret);
`restore` unpacks such a file into an empty directory. Indexes rebuilt from a database
(`*.db.vectors/`), WAL side files, staged uploads and half-written files are left out.

The file is a zip: `manifest.json` (what it holds), the files at their paths in the data
directory, with their modes (the token secret stays readable by its owner only)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import tempfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from citewise.errors import InputError

FORMAT = 1
MANIFEST = "manifest.json"
_SQLITE_HEADER = b"SQLite format 3\x00"


@dataclass(frozen=True, slots=True)
class BackupReport:
    path: Path
    databases: tuple[str, ...]  # copied with the online backup API
    files: int  # every other file
    bytes: int  # the archive's size
    seconds: float

    def to_json(self) -> dict[str, object]:
        return {"path": str(self.path), "databases": list(self.databases), "files": self.files,
                "bytes": self.bytes, "seconds": round(self.seconds, 3)}  # fmt: skip


def is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except OSError:
        return False


def _left_out(rel: PurePosixPath) -> bool:
    """Derived or transient: rebuilt or redone, never lost."""
    name = rel.name
    return (
        any(part.endswith(".db.vectors") or part == ".staging" for part in rel.parts[:-1])
        or name.endswith(("-wal", "-shm", "-journal"))
        or name.startswith((".part-", ".backup-"))
    )


def _files(data_dir: Path) -> Iterator[tuple[Path, PurePosixPath]]:
    for dirpath, dirnames, filenames in os.walk(data_dir):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = PurePosixPath(path.relative_to(data_dir).as_posix())
            if path.is_file() and not path.is_symlink() and not _left_out(rel):
                yield path, rel


def _copy_database(source: Path, dest: Path) -> None:
    """One consistent state of `source` (a read transaction over the whole copy)."""
    src = sqlite3.connect(source, timeout=30)
    dst = sqlite3.connect(dest)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no WAL beside it
    finally:
        dst.close()
        src.close()


def _info(rel: PurePosixPath, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(rel.as_posix(), time.localtime()[:6])
    info.external_attr = (stat.S_IFREG | stat.S_IMODE(mode)) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def _add(zf: zipfile.ZipFile, path: Path, rel: PurePosixPath, mode: int) -> None:
    with path.open("rb") as src, zf.open(_info(rel, mode), "w") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)


def snapshot(data_dir: Path, out: Path, *, about: dict[str, object] | None = None) -> BackupReport:
    """Writes the backup of `data_dir` to `out` (through a temporary file beside it, so a
    failed run leaves no half archive). `about` goes into the manifest (release, store)."""
    started = time.perf_counter()
    data_dir = data_dir.expanduser()
    if not data_dir.is_dir():
        raise InputError(f"no data directory at {data_dir}")
    out = out.expanduser().resolve()
    if out.is_relative_to(data_dir.resolve()):
        raise InputError("write the backup outside the data directory it copies")
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=out.parent, prefix=".backup-", suffix=".zip")
    os.close(fd)
    tmp = Path(tmp_name)
    databases: list[str] = []
    others = 0
    try:
        with zipfile.ZipFile(tmp, "w", allowZip64=True) as zf, tempfile.TemporaryDirectory() as t:
            # databases first, other files listed after: a file a row names (an original,
            # an upload) is written before its row, so every one the copies name is there
            for path, rel in _files(data_dir):
                if is_sqlite(path):
                    copy = Path(t) / "copy.db"
                    _copy_database(path, copy)
                    _add(zf, copy, rel, path.stat().st_mode)
                    copy.unlink()
                    databases.append(rel.as_posix())
            for path, rel in _files(data_dir):
                if rel.as_posix() in databases:
                    continue
                try:
                    _add(zf, path, rel, path.stat().st_mode)
                except FileNotFoundError:  # removed meanwhile (a deleted document's original)
                    continue
                others += 1
            manifest = {"format": FORMAT, "created_at": time.time(), "databases": databases,
                        **(about or {})}  # fmt: skip
            zf.writestr(MANIFEST, json.dumps(manifest, indent=2))
        os.replace(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return BackupReport(
        out, tuple(databases), others, out.stat().st_size, time.perf_counter() - started
    )


def read_manifest(archive: Path) -> dict[str, object]:
    try:
        with zipfile.ZipFile(archive) as zf:
            manifest: dict[str, object] = json.loads(zf.read(MANIFEST))
    except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as exc:
        raise InputError(f"{archive} is not a citewise backup: {exc}") from exc
    if manifest.get("format") != FORMAT:
        raise InputError(f"{archive}: backup format {manifest.get('format')} is not {FORMAT}")
    return manifest


def restore(archive: Path, data_dir: Path) -> dict[str, object]:
    """Unpacks `archive` into `data_dir`, which must be empty or absent (nothing there is
    overwritten); returns its manifest. Unpacked beside it first, then moved in place."""
    archive, data_dir = archive.expanduser(), data_dir.expanduser()
    manifest = read_manifest(archive)
    if data_dir.exists() and (not data_dir.is_dir() or any(data_dir.iterdir())):
        raise InputError(f"{data_dir} is not empty: restore into an empty or new directory")
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=data_dir.parent, prefix=".restore-"))
    try:
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                rel = PurePosixPath(info.filename)
                if info.filename == MANIFEST or info.is_dir():
                    continue
                if rel.is_absolute() or ".." in rel.parts or "\\" in info.filename:
                    raise InputError(f"{archive}: an entry outside the data directory: {rel}")
                dest = staging.joinpath(*rel.parts)
                dest.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, dest.open("wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
                dest.chmod(stat.S_IMODE(info.external_attr >> 16) or 0o600)
        if data_dir.exists():
            data_dir.rmdir()  # empty, checked above
        os.replace(staging, data_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return manifest
