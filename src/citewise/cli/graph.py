"""`citewise graph show|related|export`: the knowledge graph read at ingest."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from citewise.cli.common import Collection, DataDir, JsonFlag, open_assistant, run_command

if TYPE_CHECKING:
    from citewise.assistant import Assistant

app = typer.Typer(
    help="Look at the knowledge graph: entities, links, export.", no_args_is_help=True
)


@app.command("show")
def graph_show(
    name: Annotated[str, typer.Argument(help="An entity's name or alias, e.g. FC-001-234.")],
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """An entity: its aliases, relations (with the passages behind them) and documents."""

    def view_of(assistant: Assistant) -> dict[str, Any]:
        return assistant.graph_entity(name)

    _print_view(data_dir, collection, as_json, view_of, _print_entity)


def _print_entity(view: Any) -> None:
    from citewise.cli.render.tables import out_console

    out_console.print(f"[bold]{view['name']}[/bold] ({view['kind']})", highlight=False)
    if view["aliases"]:
        out_console.print("aliases: " + ", ".join(view["aliases"]), highlight=False)
    for rel in view["relations"]:
        out_console.print(f"  {rel['source']} —{rel['kind']}→ {rel['target']}", highlight=False)
        for ev in rel["evidence"]:
            out_console.print(f"      [dim]{ev['source']}: {ev['quote']}[/dim]", highlight=False)
    out_console.print("documents:", highlight=False)
    for doc in view["documents"]:
        out_console.print(f"  {doc['source']}  {doc['title']}", highlight=False)


@app.command("related")
def graph_related(
    source: Annotated[str, typer.Argument(help="A document's source as `docs ls` shows it.")],
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Documents linked to a document, with the reason and strength of each link."""

    def view_of(assistant: Assistant) -> dict[str, Any]:
        return assistant.graph_related(source)

    def print_related(view: Any) -> None:
        from citewise.cli.render.tables import out_console

        if not view["related"]:
            out_console.print(f"no documents are linked to {source}", highlight=False)
        for link in view["related"]:
            out_console.print(
                f"{link['strength']:.2f}  {link['source']}  [dim]{link['reason']}[/dim]",
                highlight=False,
            )

    _print_view(data_dir, collection, as_json, view_of, print_related)


def _print_view(
    data_dir: Path | None,
    collection: str | None,
    as_json: bool,
    view_of: Callable[[Assistant], dict[str, Any]],
    print_table: Callable[[Any], None],
) -> None:
    """Opens the assistant, reads a view of the collection's graph, prints it as JSON or
    with `print_table`."""
    from citewise.cli.render.tables import print_json

    def action() -> None:
        with open_assistant(data_dir, collection) as assistant:
            view = view_of(assistant)
        if as_json:
            print_json(view)
        else:
            print_table(view)

    run_command(as_json, action)


@app.command("export")
def graph_export(
    fmt: Annotated[
        Literal["graphml", "json"], typer.Option("--format", help="graphml (Gephi, yEd) or json.")
    ] = "graphml",
    data_dir: DataDir = None,
    collection: Collection = None,
) -> None:
    """The collection's whole graph on stdout: documents, entities, relations and links."""
    from citewise.graph.export import export

    def action() -> None:
        with open_assistant(data_dir, collection) as assistant:
            snapshot = assistant.graph_snapshot()
        sys.stdout.write(export(snapshot, fmt) + "\n")

    run_command(False, action)


@app.command("build")
def graph_build(
    rebuild: Annotated[
        bool, typer.Option("--all", help="Rebuild every document's graph, not only missing ones.")
    ] = False,
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Builds the graph of documents stored before the graph existed (ingest builds the graph
    of every document it stores; an unchanged document is not re-read)."""
    from citewise.cli.render.tables import err_console, print_json

    def action() -> None:
        with open_assistant(data_dir, collection) as assistant:
            built, ready = assistant.build_graph(rebuild=rebuild)
        if as_json:
            print_json({"built": built, "documents": ready})
        err_console.print(f"built the graph of {built} of {ready} documents", highlight=False)

    run_command(as_json, action)
