"""`citewise graph show|related|export`: the knowledge graph read at ingest."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from citewise.cli.common import Collection, DataDir, JsonFlag, open_assistant, run_command
from citewise.graph.store import GraphStore

if TYPE_CHECKING:
    from citewise.store.base import Store

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
    from citewise.graph.views import entity_view

    def view_of(store: Store, graph: GraphStore, collection: str) -> dict[str, object]:
        return entity_view(store, graph, collection, name)

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
    from citewise.graph.views import related_view

    def view_of(store: Store, graph: GraphStore, collection: str) -> dict[str, object]:
        return related_view(store, graph, collection, source)

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
    view_of: Callable[[Store, GraphStore, str], dict[str, object]],
    print_table: Callable[[Any], None],
) -> None:
    """Opens the assistant, reads a view of the collection's graph, prints it as JSON or
    with `print_table`."""
    from citewise.cli.render.tables import print_json

    def action() -> None:
        with open_assistant(data_dir, collection) as assistant:
            view = view_of(assistant.store, graph_of(assistant.store), assistant.collection)
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
            snapshot = graph_of(assistant.store).snapshot(assistant.collection)
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
    from citewise.ingest.graph import store_graphs

    def action() -> None:
        with open_assistant(data_dir, collection) as assistant:
            graph = graph_of(assistant.store)
            ids = [d.doc_id for d in assistant.documents() if d.status == "ready"]
            have = set() if rebuild else {
                d.doc_id for d in graph.documents(assistant.collection, ids)
            }  # fmt: skip
            built = store_graphs(assistant.store, [i for i in ids if i not in have])
        if as_json:
            print_json({"built": built, "documents": len(ids)})
        err_console.print(f"built the graph of {built} of {len(ids)} documents", highlight=False)

    run_command(as_json, action)


def graph_of(store: object) -> GraphStore:
    from citewise.errors import InputError
    from citewise.store.base import GraphHolder

    if not isinstance(store, GraphHolder):
        raise InputError("this store keeps no knowledge graph")
    return store.graph_store()
