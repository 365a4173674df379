"""`docs ls` shows each source whole, on one line, so it can be pasted into `docs rm`."""

from __future__ import annotations

import io

from rich.console import Console

from citewise.cli.render.tables import render_documents
from citewise.types import DocumentInfo

LONG = "/home/someone/projects/team-b/meeting-notes/2026/december/weekly-notes.md"


def _doc(source: str) -> DocumentInfo:
    return DocumentInfo(
        doc_id=1, collection="default", source=source, title="Weekly notes of team B",
        format="markdown", category="", tags=(), content_hash="h", mtime=0.0, size=1,
        status="ready", page_count=None, chunk_count=3, ingested_at=0.0,
    )  # fmt: skip


def test_a_long_source_is_shown_whole_in_a_narrow_terminal() -> None:
    out = io.StringIO()
    render_documents([_doc(LONG), _doc("notes.md")], Console(file=out, width=90))
    lines = out.getvalue().splitlines()
    assert any(LONG in line for line in lines), out.getvalue()
