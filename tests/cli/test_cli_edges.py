"""The CLI's edges: exit codes as the README documents them, sizes in binary units with the
unit named, `--help` without type tags beside flags, and `history ls` with what a person
recognises a conversation by."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from citewise.cli import app

runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "hashing")
    return {"CITEWISE_DATA_DIR": str(tmp_path / "data")}


def test_a_folder_where_every_file_failed_or_is_unsupported_exits_1(
    tmp_path: Path, env: dict[str, str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.xyz").write_text("not a format citewise reads", encoding="utf-8")
    (docs / "empty.md").write_text("   \n", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(docs), "--json"], env=env)
    assert result.exit_code == 1, result.output
    statuses = {o["source"]: o["status"] for o in json.loads(result.stdout)["outcomes"]}
    assert statuses == {"notes.xyz": "skipped", "empty.md": "failed"}


def test_a_folder_with_one_good_file_or_only_unchanged_files_exits_0(
    tmp_path: Path, env: dict[str, str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.xyz").write_text("not a format citewise reads", encoding="utf-8")
    (docs / "guide.md").write_text("# Guide\n\nRotate the logs nightly.\n", encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(docs)], env=env).exit_code == 0
    assert runner.invoke(app, ["ingest", str(docs / "guide.md")], env=env).exit_code == 0


def test_a_file_over_the_size_limit_is_reported_in_mib(tmp_path: Path, env: dict[str, str]) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    with (docs / "big.md").open("wb") as big:
        big.truncate(110 * 2**20)  # sparse: checked by size before it is read
    limits = {**env, "CITEWISE_MAX_FILE_BYTES": str(100 * 2**20)}
    result = runner.invoke(app, ["ingest", str(docs), "--json"], env=limits)
    reason = json.loads(result.stdout)["outcomes"][0]["reason"]
    assert reason == "too large: the file is 110 MiB, over the limit of 100 MiB", reason


def _commands(group: typer.Typer, prefix: list[str]) -> list[list[str]]:
    import typer.main

    root = typer.main.get_command(group)
    found: list[list[str]] = [prefix]

    def walk(command: object, path: list[str]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            found.append([*path, name])
            walk(sub, [*path, name])

    walk(root, prefix)
    return found


def test_help_shows_no_type_tag_beside_flags() -> None:
    commands = _commands(app, [])
    assert ["mcp"] in commands and ["history", "ls"] in commands
    for command in commands:
        result = runner.invoke(app, [*command, "--help"])
        assert result.exit_code == 0, (command, result.output)
        assert "<bool>" not in result.output, (command, result.output)
    ingest = runner.invoke(app, ["ingest", "--help"]).output
    assert "--prune / --no-prune" in ingest and "--json" in ingest


def test_history_ls_shows_the_first_question_turns_and_last_activity(
    tmp_path: Path, env: dict[str, str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nRotate the logs nightly.\n", encoding="utf-8")
    runner.invoke(app, ["ingest", str(docs)], env=env)
    for question in ("How often are the [logs] rotated?", "And where?"):
        assert runner.invoke(app, ["ask", question, "--session", "s1"], env=env).exit_code == 0
    listed = runner.invoke(app, ["history", "ls", "--json"], env=env)
    (row,) = json.loads(listed.stdout)["sessions"]
    assert row["title"] == "How often are the [logs] rotated?" and row["turns"] == 2
    assert row["updated_at"] >= row["created_at"] > 0
    table = runner.invoke(app, ["history", "ls"], env={**env, "COLUMNS": "120"}).stdout
    assert "How often are the [logs] rotated?" in table and "last activity" in table
    line = next(ln for ln in table.splitlines() if "s1" in ln)
    assert " 2 " in line and "20" in line  # turns, and the date of the last activity
