"""`citewise reindex`: re-parses documents stored by an earlier release's parsing or
chunking, embeds chunks that lack vectors, and clears the store's note that an upgrade
needs it. Resumable: run it again after an interruption (docs/upgrades.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from citewise.cli.common import Collection, DataDir, JsonFlag, open_assistant, run_command

app = typer.Typer()


@app.command()
def reindex(
    data_dir: DataDir = None,
    collection: Collection = None,
    new_embedder: Annotated[
        bool,
        typer.Option(
            "--new-embedder",
            help="Embed every chunk again with the configured embedder (the stored vectors"
            " were made by another).",
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Bring stored documents up to this release (all collections unless --collection)."""
    from citewise.cli.render.tables import err_console, print_json

    def action() -> None:
        with open_assistant(data_dir, None) as assistant:
            report = assistant.reindex(collection=collection, new_embedder=new_embedder)
        if as_json:
            print_json(report.to_json())
        for o in report.outcomes:
            if o.status == "failed":
                err_console.print(f"[red]failed[/] {o.source}: {o.reason}", highlight=False)
        err_console.print(
            f"re-parsed {report.count('replaced')} documents, {report.count('unchanged')}"
            f" resumed or current, {report.count('failed')} failed;"
            f" {report.chunks_embedded} chunks embedded",
            highlight=False,
        )
        if report.count("failed"):
            raise typer.Exit(1)

    run_command(as_json, action)
