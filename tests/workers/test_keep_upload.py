"""A worker's handling of an uploaded file: kept for re-ingest when it is in, removed when
it failed, the staging folder gone with its last file, and a retry after the move reads the
kept copy."""

from __future__ import annotations

from pathlib import Path

from citewise.workers.keep import keep_upload, upload_to_read


def _staged(tmp_path: Path, *names: str) -> list[Path]:
    folder = tmp_path / ".staging" / "job1"
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_text(f"text of {name}")
    return [folder / n for n in names]


def test_an_ingested_file_is_kept_and_the_staging_folder_goes_with_its_last_file(
    tmp_path: Path,
) -> None:
    a, b = _staged(tmp_path, "a.md", "b.md")
    keep_upload(a, tmp_path, keep=True)
    assert (tmp_path / "a.md").read_text() == "text of a.md" and b.parent.is_dir()
    keep_upload(b, tmp_path, keep=False)
    assert not (tmp_path / "b.md").exists() and not b.parent.exists()


def test_a_retry_after_the_move_reads_the_kept_copy(tmp_path: Path) -> None:
    (a,) = _staged(tmp_path, "a.md")
    assert upload_to_read(a, tmp_path) == a
    keep_upload(a, tmp_path, keep=True)
    assert upload_to_read(a, tmp_path) == tmp_path / "a.md"
