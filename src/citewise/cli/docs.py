"""`citewise docs ls|rm`: the documents of a collection."""

from __future__ import annotations

from typing import Annotated

import typer

from citewise.cli.common import Collection, DataDir, JsonFlag, open_existing, run_command

app = typer.Typer(help="List or remove ingested documents.", no_args_is_help=True)


@app.command("ls")
def docs_ls(
    data_dir: DataDir = None, collection: Collection = None, as_json: JsonFlag = False
) -> None:
    """List the documents of a collection."""
    from citewise.cli.render.tables import out_console, print_json, render_documents

    def action() -> None:
        with open_existing(data_dir, collection) as assistant:
            docs = assistant.documents()
        if as_json:
            print_json({"documents": [d.to_json() for d in docs]})
        else:
            render_documents(docs, out_console)

    run_command(as_json, action)


@app.command("rm")
def docs_rm(
    sources: Annotated[list[str], typer.Argument(help="Document sources as `docs ls` shows them.")],
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Remove documents from every index."""
    from citewise.cli.render.tables import err_console, print_json

    def action() -> None:
        with open_existing(data_dir, collection) as assistant:
            removed = [assistant.delete(s).source for s in sources]
        if as_json:
            print_json({"removed": removed})
        for s in removed:
            err_console.print(f"removed {s}")

    run_command(as_json, action)
