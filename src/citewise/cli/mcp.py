"""`citewise mcp`: the MCP server over stdio, for a client that starts it (Claude Desktop,
an IDE, an agent framework). stdout carries the protocol, so nothing else is printed there."""

from __future__ import annotations

from typing import Annotated

import typer

from citewise.cli.common import Collection, DataDir, open_assistant, run_command

app = typer.Typer()

ApiKey = Annotated[
    str | None,
    typer.Option(
        "--api-key", envvar="CITEWISE_API_KEY",
        help="Act as this key's user (its collections only); default: the local user.",
    ),
]  # fmt: skip


@app.command()
def mcp(data_dir: DataDir = None, collection: Collection = None, api_key: ApiKey = None) -> None:
    """Serve the MCP tools (search, ask, list_documents, get_passage) and the documents as
    resources over stdio."""
    from citewise.mcp import build_server

    def action() -> None:
        with open_assistant(data_dir, collection) as assistant:
            auth = assistant.auth
            # a key is checked on every call: a revoked key stops working at once
            principal = (
                auth.local_principal if api_key is None else lambda: auth.authenticate(api_key)
            )
            if api_key is not None:
                principal()  # a wrong key fails now, with a clear message and exit code
            build_server(assistant, principal).run("stdio")

    run_command(False, action)
