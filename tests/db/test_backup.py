"""`citewise backup` / `restore`: a data directory in one file, taken while it is written,
and back into an empty directory that answers as the original did."""

from __future__ import annotations

import sqlite3
import threading
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.assistant import Assistant
from citewise.cli import app
from citewise.db.backup import restore
from citewise.errors import InputError
from support import write_corpus

QUESTION = "How many rotated log files are kept?"


def _filled(data: Path, corpus: Path) -> str:
    """A data dir with documents, a conversation and a user with a key; the key."""
    with Assistant(data_dir=data, embedder="hashing") as a:
        a.ingest([corpus])
        a.ask(QUESTION, session_id="s1")
        user = a.auth.create_user("admin", "a long test password", is_admin=True)
        made, _ = a.users.create_key(user.user_id, "k", frozenset({"read"}), None)
    return made.key


def test_backup_then_restore_then_ask(tmp_path: Path, corpus: Path) -> None:
    key = _filled(tmp_path / "data", corpus)
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        report = a.backup(tmp_path / "backup.zip")
    assert report.databases == ("citewise.db", "memory.db")
    restore(tmp_path / "backup.zip", tmp_path / "restored")
    assert (tmp_path / "restored" / "secret_key").stat().st_mode & 0o077 == 0
    with Assistant(data_dir=tmp_path / "restored", embedder="hashing") as b:
        answer = b.ask(QUESTION)
        assert "seven" in answer.answer and answer.citations[0].source == "guides/logging.md"
        assert b.history("s1")[0].question == QUESTION
        assert b.auth.authenticate(key).username == "admin"
        kept = [b.settings.originals_dir / d.content_hash[:2] / d.content_hash
                for d in b.documents()]  # fmt: skip
        assert kept and all(p.is_file() for p in kept)


def test_restore_refuses_a_directory_that_is_not_empty(tmp_path: Path, corpus: Path) -> None:
    _filled(tmp_path / "data", corpus)
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        a.backup(tmp_path / "backup.zip")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "citewise.db").write_text("mine")
    with pytest.raises(InputError, match="not empty"):
        restore(tmp_path / "backup.zip", tmp_path / "busy")
    assert (tmp_path / "busy" / "citewise.db").read_text() == "mine"


def test_an_entry_outside_the_data_directory_is_refused(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "evil.zip", "w") as zf:
        zf.writestr("manifest.json", '{"format": 1}')
        zf.writestr("../outside.txt", "x")
    with pytest.raises(InputError, match="outside"):
        restore(tmp_path / "evil.zip", tmp_path / "target")
    assert not (tmp_path / "outside.txt").exists() and not (tmp_path / "target").exists()


def test_a_backup_taken_during_an_ingest_is_consistent(tmp_path: Path) -> None:
    many = {f"notes/n{i:03}.md": f"# Note {i}\n\nThe code of note {i} is {i * 7919}.\n"
            for i in range(60)}  # fmt: skip
    corpus = write_corpus(tmp_path / "docs", many)
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        a.ingest([write_corpus(tmp_path / "first", {"a.md": "# A\n\nFirst.\n"})])
        writer = threading.Thread(target=a.ingest, args=([corpus],))
        writer.start()
        reports = [a.backup(tmp_path / f"b{i}.zip") for i in range(3)]
        writer.join()
    for i, _ in enumerate(reports):
        restore(tmp_path / f"b{i}.zip", tmp_path / f"r{i}")
        db = sqlite3.connect(tmp_path / f"r{i}" / "citewise.db")
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        db.close()
        with Assistant(data_dir=tmp_path / f"r{i}", embedder="hashing") as b:
            kept = b.settings.originals_dir
            for doc in b.documents():  # every document's original came along
                assert (kept / doc.content_hash[:2] / doc.content_hash).is_file()


def test_the_cli_backs_up_and_restores(tmp_path: Path, corpus: Path) -> None:
    _filled(tmp_path / "data", corpus)
    runner = CliRunner()
    env = {"CITEWISE_EMBEDDER": "hashing"}
    made = runner.invoke(app, ["backup", str(tmp_path / "b.zip"),
                               "--data-dir", str(tmp_path / "data")], env=env)  # fmt: skip
    assert made.exit_code == 0, made.output
    back = runner.invoke(app, ["restore", str(tmp_path / "b.zip"),
                               "--data-dir", str(tmp_path / "new")], env=env)  # fmt: skip
    assert back.exit_code == 0, back.output
    assert "restored 4 documents" in back.output
    again = runner.invoke(app, ["restore", str(tmp_path / "b.zip"),
                                "--data-dir", str(tmp_path / "new")], env=env)  # fmt: skip
    assert again.exit_code != 0 and "not empty" in " ".join(again.output.split())
