"""The `citewise` command line: one module per command group, each a `typer.Typer` added
here. Thin: commands parse options, call the `Assistant` facade and render."""

from __future__ import annotations

import logging
import os
from typing import Annotated

import typer

from citewise.cli import (
    backup,
    conversation,
    docs,
    evaluate,
    graph,
    ingest,
    mcp,
    reindex,
    search,
    serve,
    users,
    worker,
)

app = typer.Typer(
    help="Answers questions only from your documents, with citations.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: no type tags such as <bool> beside flags
)


def _print_version(wanted: bool) -> None:
    if wanted:
        from citewise import __version__

        typer.echo(f"citewise {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Answers questions only from your documents, with citations."""


# commands first, then the groups, as `citewise --help` lists them
for commands in (
    ingest.app,
    search.app,
    evaluate.app,
    conversation.app,
    serve.app,
    mcp.app,
    worker.app,
    backup.app,
    reindex.app,
):
    app.add_typer(commands)
app.add_typer(docs.app, name="docs")
app.add_typer(graph.app, name="graph")
app.add_typer(conversation.history_app, name="history")
app.add_typer(users.app, name="users")


def main() -> None:
    logging.basicConfig(level=os.environ.get("CITEWISE_LOG", "WARNING").upper())
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    app()
