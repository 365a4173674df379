"""What every command shares: the options, opening the assistant, and `run_command`, which
maps the error tree to exit codes and clear messages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from citewise.errors import CitewiseError

if TYPE_CHECKING:
    from citewise.assistant import Assistant
    from citewise.config import Settings

DataDir = Annotated[
    Path | None,
    typer.Option("--data-dir", envvar="CITEWISE_DATA_DIR", help="Store location (~/.citewise)."),
]
Collection = Annotated[str | None, typer.Option("--collection", "-c", envvar="CITEWISE_COLLECTION")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output on stdout.")]
T = TypeVar("T")


def settings_for(data_dir: Path | None, collection: str | None, **overrides: object) -> Settings:
    from citewise.config import load_settings

    return load_settings(data_dir=data_dir, collection=collection, **overrides)


def open_assistant(data_dir: Path | None, collection: str | None) -> Assistant:
    """The one facade over the data dir's parts (the HTTP API serves the same one)."""
    from citewise.assistant import Assistant

    return Assistant(settings=settings_for(data_dir, collection))


def open_existing(data_dir: Path | None, collection: str | None) -> Assistant:
    """`open_assistant` for commands that read: a collection named that does not exist is
    `NotFoundError` (exit 4), as on the HTTP API (404)."""
    assistant = open_assistant(data_dir, collection)
    if collection is not None:
        try:
            assistant.require_collection(collection)
        except BaseException:
            assistant.close()
            raise
    return assistant


def run_command(as_json: bool, action: Callable[[], T]) -> T:
    """Maps the error tree to exit codes and clear messages (no tracebacks)."""
    from citewise.cli.render.tables import err_console, print_json

    try:
        return action()
    except CitewiseError as exc:
        if as_json:
            print_json({"error": str(exc), "type": type(exc).__name__})
        err_console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted: the store is consistent; run again to resume[/]")
        raise typer.Exit(130) from None
