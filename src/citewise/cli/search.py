"""`citewise search`: the passages a query finds, without an answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from citewise.cli.common import Collection, DataDir, JsonFlag, open_existing, run_command

if TYPE_CHECKING:
    from citewise.types import SearchMode

app = typer.Typer()
MODES: dict[str, SearchMode] = {"hybrid": "hybrid", "keyword": "keyword", "vector": "vector"}


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    k: Annotated[int, typer.Option("-k", help="Number of passages.")] = 10,
    mode: Annotated[str, typer.Option(help="hybrid | keyword | vector")] = "hybrid",
    category: Annotated[str | None, typer.Option(help="Only documents of this category.")] = None,
    tag: Annotated[list[str] | None, typer.Option(help="Only documents with this tag.")] = None,
    source: Annotated[list[str] | None, typer.Option(help="Only this document.")] = None,
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Hybrid keyword + vector search over the ingested passages."""
    from citewise.cli.render.tables import out_console, print_json, render_search
    from citewise.errors import InputError

    def action() -> None:
        if mode not in MODES:
            raise InputError(f"unknown mode '{mode}': use hybrid, keyword or vector")
        with open_existing(data_dir, collection) as assistant:
            result = assistant.search(
                query,
                k=k,
                mode=MODES[mode],
                category=category,
                tags=tag or (),
                sources=source or (),
            )
        if as_json:
            print_json(result.to_json())
        else:
            render_search(result, out_console)

    run_command(as_json, action)
