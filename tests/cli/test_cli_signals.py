"""What the command line says matches what happened: its version, an empty folder, a
collection that does not exist, pages going by while a long PDF parses, and the summary of an
ingest that finished an interrupted one."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas
from typer.testing import CliRunner

from citewise import __version__
from citewise.assistant import Assistant
from citewise.cli import app
from citewise.config import load_settings
from citewise.embed.hashing import HashingEmbedder
from support import write_corpus

runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "hashing")
    return {"CITEWISE_DATA_DIR": str(tmp_path / "data")}


def test_version_prints_the_release() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"citewise {__version__}"


def test_an_empty_folder_exits_1_with_a_hint(tmp_path: Path, env: dict[str, str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["ingest", str(empty)], env=env)
    assert result.exit_code == 1
    assert "no files in" in result.stderr and ".pdf" in result.stderr


@pytest.mark.parametrize(
    "command",
    [["ask", "What is the timeout?"], ["search", "timeout"], ["docs", "ls"], ["docs", "rm", "x"]],
)
def test_an_unknown_collection_exits_4_on_every_command(
    command: list[str], tmp_path: Path, env: dict[str, str]
) -> None:
    assert (
        runner.invoke(app, ["ingest", str(write_corpus(tmp_path / "docs"))], env=env).exit_code == 0
    )
    result = runner.invoke(app, [*command, "--collection", "nope", "--json"], env=env)
    assert result.exit_code == 4, result.output
    assert (
        json.loads(result.stdout)["error"] == "no collection 'nope': ingest documents into it first"
    )


def test_a_collection_that_exists_lists_its_documents(tmp_path: Path, env: dict[str, str]) -> None:
    runner.invoke(app, ["ingest", str(write_corpus(tmp_path / "d")), "-c", "team"], env=env)
    result = runner.invoke(app, ["docs", "ls", "-c", "team", "--json"], env=env)
    assert result.exit_code == 0 and len(json.loads(result.stdout)["documents"]) == 4


class _Recorder:
    def __init__(self) -> None:
        self.details: list[str] = []
        self.embedding: list[tuple[int, int]] = []

    def files(self, done: int, total: int, source: str) -> None:
        self.details.append(source)

    def embedded(self, done: int, total: int) -> None:
        self.embedding.append((done, total))


def _pdf(path: Path, pages: int) -> Path:
    c = canvas.Canvas(str(path))
    for page in range(1, pages + 1):
        c.drawString(72, 760, f"Page {page} describes the heron count of reach {page}.")
        c.showPage()
    c.save()
    return path


def test_a_long_pdf_shows_its_pages_while_it_parses(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _pdf(docs / "survey.pdf", 12)
    progress = _Recorder()
    with Assistant(data_dir=tmp_path / "data", embedder=HashingEmbedder(dim=64)) as a:
        a.ingest([docs], progress=progress)
    assert progress.details[0] == "survey.pdf"  # shown before the parse, not after it
    assert "survey.pdf page 1/12" in progress.details
    assert "survey.pdf page 12/12" in progress.details
    # then the highlights' lines are read, page by page too
    assert any(d.startswith("survey.pdf positions, page ") for d in progress.details)
    assert progress.embedding[0][0] == 0  # the embedding bar shows before the first batch


class _Interrupted(HashingEmbedder):
    """Ctrl-C in the middle of embedding: the documents are stored, their vectors are not."""

    def embed_documents(self, texts: Sequence[str]) -> object:  # type: ignore[override]
        raise KeyboardInterrupt


def test_the_summary_after_a_resumed_ingest_counts_what_it_did(
    tmp_path: Path, env: dict[str, str]
) -> None:
    corpus = write_corpus(tmp_path / "docs")
    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing")
    with (
        Assistant(settings=settings, embedder=_Interrupted()) as a,
        pytest.raises(KeyboardInterrupt),
    ):
        a.ingest([corpus])
    result = runner.invoke(app, ["ingest", str(corpus), "--json"], env=env)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    statuses = {o["status"] for o in report["outcomes"]}
    assert report["chunks_embedded"] > 0 and statuses == {"ingested"}, report
    assert {o["reason"] for o in report["outcomes"]} == {"completed an interrupted attempt"}
