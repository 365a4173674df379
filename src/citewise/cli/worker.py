"""`citewise worker`, `citewise enqueue` and `citewise dead-letters`: ingestion on a queue."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from citewise.cli.common import Collection, DataDir, JsonFlag, run_command, settings_for
from citewise.errors import ConfigError

if TYPE_CHECKING:
    from citewise.config import Settings

Queue = Annotated[
    str | None,
    typer.Option("--queue", envvar="CITEWISE_QUEUE", help="redis://HOST:6379/0"),
]
app = typer.Typer()


def _settings(data_dir: Path | None, collection: str | None, queue: str | None) -> Settings:
    settings = settings_for(data_dir, collection, queue=queue)
    if not settings.queue:
        raise ConfigError("no queue configured: set CITEWISE_QUEUE=redis://HOST:6379/0")
    return settings


@app.command()
def worker(
    threads: Annotated[int, typer.Option(help="Jobs at once in this process.")] = 1,
    queue: Queue = None,
    data_dir: DataDir = None,
) -> None:
    """Ingest files sent to the queue into the store (CITEWISE_STORE) until stopped."""
    from citewise.assistant import Assistant

    def action() -> None:
        with Assistant(settings=_settings(data_dir, None, queue)) as assistant:
            assistant.ingest_from_queue(threads=max(1, threads))

    run_command(False, action)


@app.command()
def enqueue(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders (recursive).")],
    wait: Annotated[bool, typer.Option(help="Wait until every file is done.")] = False,
    timeout: Annotated[float, typer.Option(help="Seconds to wait at most.")] = 3600.0,
    queue: Queue = None,
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Send one ingestion job per file to the workers (paths as every worker sees them)."""
    from citewise.assistant import Assistant
    from citewise.cli.render.tables import err_console, print_json
    from citewise.workers.queue import IngestQueue

    def action() -> None:
        settings = _settings(data_dir, collection, queue)
        with Assistant(settings=settings) as assistant:  # sources from the collection's root
            root = assistant.source_root(paths)
        q = IngestQueue(settings.queue)
        try:
            batch = q.submit(paths, settings.collection, root)
            err_console.print(f"sent {len(batch.sources)} files as batch {batch.batch_id}")
            outcomes = q.wait(batch, timeout) if wait else []
        finally:
            q.close()
        if as_json:
            print_json({"batch": batch.batch_id, "sources": list(batch.sources),
                        "skipped": list(batch.skipped), "outcomes": outcomes})  # fmt: skip
        for o in outcomes:
            err_console.print(f"{o['status']:>9}  {o['source']}  {o.get('reason', '')}")

    run_command(as_json, action)


@app.command(name="dead-letters")
def dead_letters(queue: Queue = None, as_json: JsonFlag = False) -> None:
    """Files the workers could not ingest, with the reason."""
    from dataclasses import asdict

    from citewise.cli.render.tables import err_console, print_json
    from citewise.workers.queue import IngestQueue

    def action() -> None:
        settings = _settings(None, None, queue)
        q = IngestQueue(settings.queue)
        try:
            letters = q.dead_letters()
        finally:
            q.close()
        if as_json:
            print_json([asdict(d) for d in letters])
        for d in letters:
            err_console.print(f"{d.collection}/{d.source}: {d.reason} ({d.attempts} tries)")

    run_command(as_json, action)
