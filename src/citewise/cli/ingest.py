"""`citewise ingest`: files and folders into the store."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from citewise.cli.common import Collection, DataDir, JsonFlag, open_assistant, run_command

if TYPE_CHECKING:
    from citewise.types import IngestReport

app = typer.Typer()


@app.command()
def ingest(
    paths: Annotated[
        list[str], typer.Argument(help="Files or folders (recursive), or http(s) addresses.")
    ],
    prune: Annotated[bool, typer.Option(help="Remove documents whose files are gone.")] = False,
    crawl: Annotated[
        bool, typer.Option(help="Follow each fetched page's links within its site.")
    ] = False,
    max_pages: Annotated[
        int | None, typer.Option(help="Pages fetched at most (default: web_max_pages, 50).")
    ] = None,
    allow_private: Annotated[
        bool, typer.Option(help="Allow fetching private, loopback and link-local addresses.")
    ] = False,
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Ingest files, folders and web pages; unchanged files are skipped, changed ones
    replaced. A web address fetches that page, or a sitemap's pages; --crawl follows links
    within the site (robots.txt respected, --max-pages at most)."""
    from citewise.cli.render.tables import (
        RichIngestProgress,
        err_console,
        print_json,
        render_ingest_report,
    )
    from citewise.ingest.web.pages import is_web_address, web_limits

    def action() -> None:
        with (
            open_assistant(data_dir, collection) as assistant,
            RichIngestProgress(err_console) as progress,
        ):
            web = web_limits(
                assistant.settings, max_pages=max_pages, follow=crawl,
                allow_private=True if allow_private else None,
            )  # fmt: skip
            targets = [p if is_web_address(p) else Path(p) for p in paths]
            report = assistant.ingest(targets, prune=prune, progress=progress, web=web)
        if as_json:
            print_json(report.to_json())
        if not report.outcomes:  # an empty folder is a mistake a script should notice
            err_console.print(no_files_hint(paths), highlight=False)
            raise typer.Exit(1)
        render_ingest_report(report, err_console)
        if nothing_ingested(report):
            raise typer.Exit(1)

    run_command(as_json, action)


def nothing_ingested(report: IngestReport) -> bool:
    """Files were found, and every one failed or is of a type citewise does not read (exit 1,
    so a script notices); a folder of unchanged files is a success."""
    usable = ("ingested", "replaced", "unchanged", "pruned")
    return bool(report.outcomes) and not any(o.status in usable for o in report.outcomes)


def no_files_hint(paths: Sequence[str | Path]) -> str:
    """What to do when the paths hold no file at all."""
    from rich.markup import escape

    from citewise.ingest.parsers import supported_extensions

    named = escape(", ".join(str(p) for p in paths))
    kinds = " ".join(sorted(supported_extensions()))  # the installed plugins' too
    return (
        f"[yellow]nothing to ingest:[/yellow] no files in {named} (hidden files are skipped). "
        f"citewise reads {kinds}"
    )
