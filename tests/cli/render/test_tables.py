"""Terminal rendering helpers: plain values in, rows out."""

from __future__ import annotations

import io

from rich.console import Console

from citewise.cli.render.tables import group_problems, render_ingest_report
from citewise.types import FileOutcome, IngestReport


def _failed(source: str, reason: str = "no text: the page has no text") -> FileOutcome:
    return FileOutcome(source, "failed", reason)


def test_files_failing_for_the_same_reason_share_one_row() -> None:
    outcomes = [_failed(f"genindex-{c}.html") for c in "ABCDEF"]
    outcomes.insert(2, _failed("broken.pdf", "corrupt: not a PDF"))
    outcomes.append(FileOutcome("logo.png", "skipped", "unsupported file type .png"))
    assert group_problems(outcomes) == [
        (
            "genindex-A.html, genindex-B.html, genindex-C.html and 3 more",
            "failed",
            "no text: the page has no text",
        ),
        ("broken.pdf", "failed", "corrupt: not a PDF"),
        ("logo.png", "skipped", "unsupported file type .png"),
    ]


def test_a_group_one_longer_than_the_list_names_every_file() -> None:
    rows = group_problems([_failed(f"{i}.html") for i in range(4)])
    assert rows == [("0.html, 1.html, 2.html, 3.html", "failed", "no text: the page has no text")]


def test_the_report_prints_each_reason_once_and_points_to_json() -> None:
    failed = [_failed(f"genindex-{c}.html") for c in "ABCDEFGH"]
    outcomes = (*failed, FileOutcome("ok.html", "ingested", chunks=3))
    console = Console(file=io.StringIO(), width=200)
    render_ingest_report(IngestReport(outcomes, seconds=1.0, chunks_embedded=3), console)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert text.count("no text: the page has no text") == 1
    assert "and 5 more" in text
    assert "--json lists every file" in text
