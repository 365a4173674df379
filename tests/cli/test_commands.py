"""The CLI contract: JSON shapes, exit codes and clear errors (no tracebacks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.cli import app

runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "hashing")
    return {"CITEWISE_DATA_DIR": str(tmp_path / "data")}


def _json(args: list[str], env: dict[str, str], code: int = 0) -> dict[str, object]:
    result = runner.invoke(app, [*args, "--json"], env=env)
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_ingest_then_search_prints_the_contract(corpus: Path, env: dict[str, str]) -> None:
    report = _json(["ingest", str(corpus)], env)
    statuses = {o["source"]: o["status"] for o in report["outcomes"]}  # type: ignore[attr-defined,index]
    assert statuses["guides/logging.md"] == "ingested"
    out = _json(["search", "logrotate nightly", "-k", "3"], env)
    assert set(out) == {"query", "hits", "timings_ms"}
    hit = out["hits"][0]  # type: ignore[index]
    assert set(hit) == {"rank", "source", "page", "section", "chunk_id", "score", "text"}
    assert hit["source"] == "guides/logging.md" and hit["rank"] == 1
    assert hit["section"] == "Logging > Rotation"


def test_docs_ls_and_rm(corpus: Path, env: dict[str, str]) -> None:
    _json(["ingest", str(corpus)], env)
    listed = _json(["docs", "ls"], env)
    assert len(listed["documents"]) == 4  # type: ignore[arg-type]
    assert _json(["docs", "rm", "guides/backup.md"], env) == {"removed": ["guides/backup.md"]}
    hits = _json(["search", "snapshot", "--mode", "keyword"], env)["hits"]
    assert all(h["source"] != "guides/backup.md" for h in hits)  # type: ignore[attr-defined,index]
    missing = _json(["docs", "rm", "nope.md"], env, code=4)
    assert "no document 'nope.md'" in str(missing["error"])


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("", "the query is empty"),
        ("   ", "the query is empty"),
        ("x" * 10_000, "10,000 characters"),
    ],
)
def test_bad_queries_get_clear_errors(query: str, message: str, env: dict[str, str]) -> None:
    result = runner.invoke(app, ["search", query], env=env)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_unknown_mode_and_missing_path_are_input_errors(env: dict[str, str]) -> None:
    assert runner.invoke(app, ["search", "x", "--mode", "fuzzy"], env=env).exit_code == 2
    result = runner.invoke(app, ["ingest", "/does/not/exist"], env=env)
    assert result.exit_code == 2 and "no such file or directory" in result.output


def test_search_on_empty_store_finds_nothing(env: dict[str, str]) -> None:
    assert _json(["search", "anything at all"], env)["hits"] == []


def test_bad_collection_name_is_rejected(env: dict[str, str]) -> None:
    result = runner.invoke(app, ["search", "x", "-c", "no spaces allowed"], env=env)
    assert result.exit_code == 2 and "collection names" in result.output
