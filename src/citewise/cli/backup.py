"""`citewise backup FILE` and `citewise restore FILE`: a data directory in one file (taken
while `serve` runs) and back into an empty directory (docs/backup.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from citewise.cli.common import DataDir, JsonFlag, open_assistant, run_command, settings_for

app = typer.Typer()

Archive = Annotated[Path, typer.Argument(help="The backup file (a zip).")]


@app.command()
def backup(out: Archive, data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """Copy the data directory (documents, originals, conversations, users and keys) into
    one file, consistently, while the server keeps running."""
    from citewise.cli.render.tables import err_console, print_json
    from citewise.text.sizes import human_size

    def action() -> None:
        with open_assistant(data_dir, None) as assistant:
            report = assistant.backup(out)
            external = assistant.settings.store is not None
        if as_json:
            print_json(report.to_json())
        err_console.print(
            f"backed up {', '.join(report.databases) or 'no database'} and {report.files} files"
            f" to {report.path} ({human_size(report.bytes)}, {report.seconds:.1f} s)",
            highlight=False,
        )
        if external:
            err_console.print(
                "[yellow]the store is not in the data directory: back its database up"
                " with its own tools (pg_dump, docs/backup.md)[/]"
            )

    run_command(as_json, action)


@app.command()
def restore(archive: Archive, data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """Unpack a backup into an empty (or new) data directory, then open it once (a backup
    of an earlier release is migrated)."""
    from citewise.cli.render.tables import err_console, print_json
    from citewise.db.backup import restore as unpack

    def action() -> None:
        target = settings_for(data_dir, None).data_dir
        manifest = unpack(archive, target)
        with open_assistant(target, None) as assistant:
            documents = sum(len(assistant.documents(collection=c))
                            for c in assistant.collections())  # fmt: skip
            missing = assistant.missing_vectors()
        if as_json:
            print_json({"data_dir": str(target), "documents": documents,
                        "chunks_without_vectors": missing, "manifest": manifest})  # fmt: skip
        err_console.print(f"restored {documents} documents into {target}", highlight=False)
        if missing:  # taken while an ingest was embedding
            err_console.print(f"{missing} chunks have no vector yet: run `citewise reindex`")

    run_command(as_json, action)
