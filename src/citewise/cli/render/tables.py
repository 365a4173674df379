"""Terminal rendering for the CLI (rich). Everything human-facing goes to stderr when
--json is given, so stdout stays machine-readable."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from citewise.types import DocumentInfo, FileOutcome, IngestReport, SearchResult
from citewise.types.documents import attachment_source

err_console = Console(stderr=True)
out_console = Console()


def print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


class RichIngestProgress:
    """Two bars: files parsed and chunks embedded, each with an ETA."""

    def __init__(self, console: Console) -> None:
        self._progress = Progress(
            TextColumn("{task.description:<10}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[detail]}", style="dim"),
            console=console,
            transient=False,
        )
        self._files: TaskID | None = None
        self._embed: TaskID | None = None

    def __enter__(self) -> RichIngestProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def files(self, done: int, total: int, source: str) -> None:
        if self._files is None:
            self._files = self._progress.add_task("files", total=total, detail="")
        self._progress.update(self._files, completed=done, total=total, detail=source[-50:])

    def embedded(self, done: int, total: int) -> None:
        if self._embed is None:
            self._embed = self._progress.add_task("embedding", total=total, detail="")
        self._progress.update(self._embed, completed=done, total=total, detail="chunks")


def render_ingest_report(report: IngestReport, console: Console) -> None:
    summary = Table(title="Ingest summary", show_edge=False)
    for col in ("ingested", "replaced", "unchanged", "failed", "skipped", "pruned"):
        summary.add_column(col, justify="right")
    summary.add_row(
        *(
            str(report.count(s))
            for s in ("ingested", "replaced", "unchanged", "failed", "skipped", "pruned")
        )
    )
    console.print(summary)
    problems = [o for o in report.outcomes if o.status in ("failed", "skipped")]
    if problems:
        table = Table(title="Not ingested", show_edge=False)
        table.add_column("file")
        table.add_column("status")
        table.add_column("reason")
        rows = group_problems(problems)
        for files, status, reason in rows:
            table.add_row(files, status, reason)
        console.print(table)
        if len(problems) > len(rows):
            console.print("[dim]--json lists every file[/dim]")
    rate = report.chunks_embedded / report.seconds if report.seconds else 0.0
    console.print(
        f"{report.chunks_embedded:,} chunks embedded in {report.seconds:.1f} s ({rate:.1f}/s)"
    )


def group_problems(outcomes: Sequence[FileOutcome], listed: int = 3) -> list[tuple[str, str, str]]:
    """(files, status, reason) rows, one per distinct status and reason in order of first
    appearance: 30 link-index pages without text make one row, not 30 (pure)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for o in outcomes:
        groups.setdefault((o.status, o.reason), []).append(o.source)
    rows = []
    for (status, reason), sources in groups.items():
        shown = sources if len(sources) <= listed + 1 else sources[:listed]
        files = ", ".join(shown)
        if len(shown) < len(sources):
            files += f" and {len(sources) - len(shown)} more"
        rows.append((files, status, reason))
    return rows


def render_search(result: SearchResult, console: Console) -> None:
    if not result.hits:
        console.print("[yellow]No matching passages.[/yellow]")
        return
    for hit in result.hits:
        source, section = attachment_source(hit.source, hit.section)  # "a.eml › b.pdf"
        where = source + (f" p. {hit.page}" if hit.page else "")
        console.print(f"[bold]{hit.rank}.[/bold] [cyan]{where}[/cyan] › {section}")
        snippet = hit.text if len(hit.text) < 400 else hit.text[:400] + "…"
        console.print(f"   {snippet}", highlight=False)
    total = result.timings_ms.get("total", 0.0)
    console.print(f"[dim]{len(result.hits)} hits in {total:.1f} ms[/dim]")


def render_documents(docs: list[DocumentInfo], console: Console) -> None:
    table = Table(show_edge=False)
    # whole, on one line, so it can be pasted into `docs rm`: the other columns give way
    widest = max((len(d.source) for d in docs), default=6)
    table.add_column("source", no_wrap=True, min_width=widest)
    for col in ("title", "format", "pages", "chunks", "status"):
        table.add_column(col)
    for d in docs:
        table.add_row(
            d.source, d.title[:60], d.format, str(d.page_count or ""), str(d.chunk_count), d.status
        )
    console.print(table)
    console.print(f"[dim]{len(docs)} documents[/dim]")


def render_sessions(rows: Sequence[dict[str, Any]], console: Console) -> None:
    """`citewise history ls`: id, title (the first question), turns, last activity."""
    if not rows:
        console.print("no conversations yet (`citewise chat` or `citewise ask --session S`)")
        return
    table = Table(show_edge=False)
    for column in ("session", "title", "turns", "last activity"):
        table.add_column(column, justify="right" if column == "turns" else "left")
    for r in rows:
        title = r["title"] if len(r["title"]) <= 60 else r["title"][:59] + "…"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r["updated_at"]))
        table.add_row(Text(r["session_id"]), Text(title), str(r["turns"]), when)  # no markup
    console.print(table)
