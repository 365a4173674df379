"""`citewise ask`, `citewise chat` and `citewise history`: the conversation commands, through
the same `Assistant.stream` door as the HTTP API."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from citewise.cli.common import (
    Collection,
    DataDir,
    JsonFlag,
    open_assistant,
    open_existing,
    run_command,
)

if TYPE_CHECKING:
    from citewise.assistant import Assistant

app = typer.Typer()
history_app = typer.Typer(help="List, show or delete conversation sessions.", no_args_is_help=True)

Session = Annotated[
    str | None,
    typer.Option("--session", "-s", help="Continue (or start) this conversation."),
]
EXIT_WORDS = {"exit", "quit", ":q", "bye"}


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question.")],
    session: Session = None,
    data_dir: DataDir = None,
    collection: Collection = None,
    as_json: JsonFlag = False,
) -> None:
    """Answer one question from the documents, with citations (streams unless --json)."""
    from citewise.cli.render.answer import render_stream
    from citewise.cli.render.tables import out_console, print_json

    def action() -> None:
        with open_existing(data_dir, collection) as assistant:
            if as_json:
                print_json(assistant.ask(question, session_id=session).to_json())
            else:
                render_stream(assistant.stream(question, session_id=session), out_console)

    run_command(as_json, action)


@app.command()
def chat(
    session: Session = None,
    data_dir: DataDir = None,
    collection: Collection = None,
) -> None:
    """Interactive conversation: answers stream as they are written. Type 'exit' to leave."""
    import uuid

    from citewise.cli.render.answer import render_stream
    from citewise.cli.render.tables import err_console, out_console
    from citewise.errors import CitewiseError

    def action() -> None:
        sid = session or uuid.uuid4().hex[:12]
        with open_existing(data_dir, collection) as assistant:
            out_console.print(f"[dim]session {sid} — ask about your documents; 'exit' leaves[/]")
            while True:
                try:
                    line = out_console.input("[bold cyan]you>[/] ").strip()
                except EOFError:
                    break
                if line.lower() in EXIT_WORDS:
                    break
                if not line:
                    continue
                try:
                    render_stream(assistant.stream(line, session_id=sid), out_console)
                except CitewiseError as exc:
                    err_console.print(f"[red]error:[/red] {exc}", highlight=False)
                out_console.print()

    run_command(False, action)


@history_app.command("ls")
def history_ls(data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """Live conversation sessions, most recent first: the first question, the number of
    turns and the last activity."""
    from citewise.cli.render.tables import out_console, print_json, render_sessions

    def action() -> None:
        with open_assistant(data_dir, None) as assistant:
            rows = [
                {"session_id": s.session_id, "title": first_question(assistant, s.session_id),
                 "turns": s.turns, "created_at": s.created_at, "updated_at": s.updated_at}
                for s in assistant.sessions()
            ]  # fmt: skip
        if as_json:
            print_json({"sessions": rows})
        else:
            render_sessions(rows, out_console)

    run_command(as_json, action)


def first_question(assistant: Assistant, session_id: str) -> str:
    """A session's title: its first question ("" when its turns expired meanwhile)."""
    turns = assistant.turns(session_id)
    return turns[0].question if turns else ""


@history_app.command("show")
def history_show(session_id: str, data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """The turns of one session (error if it is unknown or expired)."""
    from citewise.cli.render.tables import out_console, print_json

    def action() -> None:
        with open_assistant(data_dir, None) as assistant:
            turns = assistant.history(session_id)
            summary = assistant.session_summary(session_id)
        if as_json:
            print_json(
                {
                    "session_id": session_id,
                    "summary": summary,
                    "turns": [
                        {
                            "question": t.question,
                            "answer": t.answer,
                            "intent": t.intent,
                            "rewritten_query": t.rewritten_query,
                            "created_at": t.created_at,
                        }
                        for t in turns
                    ],
                }
            )
            return
        if summary:
            out_console.print(f"[dim]summary: {summary}[/dim]", highlight=False)
        for t in turns:
            out_console.print(f"[bold cyan]you>[/] {t.question}", highlight=False)
            out_console.print(t.answer, highlight=False)

    run_command(as_json, action)


@history_app.command("rm")
def history_rm(session_id: str, data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """Delete a session and its turns."""
    from citewise.cli.render.tables import err_console, print_json

    def action() -> None:
        with open_assistant(data_dir, None) as assistant:
            assistant.delete_session(session_id)
        if as_json:
            print_json({"deleted": session_id})
        err_console.print(f"deleted session {session_id}")

    run_command(as_json, action)
