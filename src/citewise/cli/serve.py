"""`citewise serve` (the HTTP API, optionally following a folder) and `citewise watch`."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Annotated

import typer

from citewise.cli.common import Collection, DataDir, open_assistant, run_command, settings_for

app = typer.Typer()

# numpy's OpenBLAS sizes its thread pool from this when it loads; a value the user set is kept
BLAS_THREADS_VARIABLE = "OPENBLAS_NUM_THREADS"


def single_threaded_blas() -> None:
    """One BLAS thread per call: the server already answers on several worker threads at
    once, and a BLAS thread pool under each call only makes them wait on one another
    (docs/serving.md). Loads numpy with the setting, then takes it out of the environment
    again, so processes the server starts (a llama.cpp server) keep their own threads. No
    effect once numpy is loaded."""
    if BLAS_THREADS_VARIABLE in os.environ:
        return
    os.environ[BLAS_THREADS_VARIABLE] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        del os.environ[BLAS_THREADS_VARIABLE]


Watch = Annotated[
    Path | None, typer.Option("--watch", help="Keep the collection in step with this folder.")
]


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Bind address; auth is required unless loopback.")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    watch: Watch = None,
    log_level: Annotated[str, typer.Option(help="debug | info | warning")] = "info",
    data_dir: DataDir = None,
    collection: Collection = None,
) -> None:
    """Serve the HTTP API and web UI (OpenAPI at /docs, OpenAI-compatible at /v1, MCP at
    /mcp)."""
    single_threaded_blas()
    import uvicorn

    from citewise.api import create_app
    from citewise.api.observability import configure_logging
    from citewise.assistant import Assistant
    from citewise.auth.service import auth_required
    from citewise.cli.render.tables import err_console

    def action() -> None:
        settings = settings_for(data_dir, collection, host=host)
        configure_logging(settings, log_level.upper())
        guard = "credentials required" if auth_required(settings) else "no login (loopback)"
        err_console.print(
            f"citewise on http://{host}:{port} — {guard}; API docs at /docs, MCP at /mcp"
        )
        assistant = Assistant(settings=settings)
        stop = threading.Event()
        watcher = None
        if watch is not None:
            from citewise.ingest.watch import FolderWatch

            watcher = threading.Thread(
                target=FolderWatch(assistant, watch, settings.collection).run,
                args=(stop,), name="citewise-watch", daemon=True,
            )  # fmt: skip
            watcher.start()
        api = create_app(settings, assistant=assistant)
        if auth_required(settings) and not api.state.auth.store.list_users():
            err_console.print(
                "[yellow]No users yet, so nobody can sign in: create the first admin with "
                "`citewise users create NAME --admin`[/yellow]"
            )
        try:
            uvicorn.run(
                api, host=host, port=port,
                log_level=log_level, access_log=False, timeout_graceful_shutdown=10,
            )  # fmt: skip
        finally:
            stop.set()
            if watcher is not None:
                watcher.join(timeout=10)
            assistant.close()

    run_command(False, action)


@app.command("watch")
def watch_cmd(
    folder: Annotated[Path, typer.Argument(help="The folder to follow.")],
    data_dir: DataDir = None,
    collection: Collection = None,
) -> None:
    """Ingest a folder, then follow it: added files are ingested, changed ones replaced,
    deleted ones removed (Ctrl-C stops)."""
    from citewise.ingest.watch import FolderWatch

    def action() -> None:
        with open_assistant(data_dir, collection) as assistant:
            FolderWatch(assistant, folder, assistant.collection, echo=True).run(threading.Event())

    run_command(False, action)
