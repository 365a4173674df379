"""Renders the answer flow's events in a terminal: tokens live, then the verified answer with
its citations. The only place the CLI knows about events; the API turns them into SSE."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rich.console import Console
from rich.live import Live
from rich.text import Text

from citewise.assistant import final_answer
from citewise.types import Answer, ErrorEvent, Event, Retraction, Status, Token
from citewise.types.documents import attachment_source

CONFIDENCE_STYLE = {"high": "green", "medium": "yellow", "low": "red", "none": "dim"}


def render_stream(events: Iterable[Event], console: Console, *, show_status: bool = True) -> Answer:
    """Shows the draft as it streams, replaces it with the verified answer, then citations.
    Returns the final `Answer`."""
    draft = Text()
    with Live(draft, console=console, refresh_per_second=12, transient=True) as live:
        answer = final_answer(_shown(events, live, draft, show_status=show_status))
    render_answer(answer, console)
    return answer


def _shown(
    events: Iterable[Event], live: Live, draft: Text, *, show_status: bool
) -> Iterator[Event]:
    """The events, each shown as it passes: statuses, the growing draft, errors."""
    for event in events:
        if isinstance(event, Status) and show_status:
            live.console.print(f"[dim]· {event.message}[/dim]", highlight=False)
        elif isinstance(event, Token):
            draft.append(event.text)
            live.update(draft)
        elif isinstance(event, Retraction):  # the check withdrew a streamed sentence
            draft.plain = draft.plain.replace(event.sentence, "", 1).replace("  ", " ")
            live.update(draft)
            live.console.print(f"[dim]· withdrawn: {event.reason}[/dim]", highlight=False)
        elif isinstance(event, ErrorEvent):
            live.console.print(f"[red]error:[/red] {event.message}", highlight=False)
        yield event


def render_answer(answer: Answer, console: Console) -> None:
    if answer.fallback is not None:  # the reader must know this is not the model's answer
        shown = "the extractive answer" if answer.fallback.used == "extractive" else "passages"
        console.print(f"[yellow]({shown}: {answer.fallback.reason})[/yellow]", highlight=False)
    console.print(answer.answer, highlight=False, soft_wrap=True)
    if answer.citations:
        console.print()
        for c in answer.citations:
            source, shown_section = attachment_source(c.source, c.section)  # "a.eml › b.pdf"
            where = source + (f", p. {c.page}" if c.page is not None else "")
            section = f" › {shown_section}" if shown_section else ""
            console.print(f"[bold][{c.n}][/bold] [cyan]{where}[/cyan]{section}", highlight=False)
            console.print(f'    [dim]"{c.quote}"[/dim]', highlight=False)
    if answer.related_docs:
        console.print(f"[dim]related: {', '.join(answer.related_docs[:5])}[/dim]", highlight=False)
    style = CONFIDENCE_STYLE.get(answer.confidence, "dim")
    total = answer.timings_ms.get("total", 0.0)
    rewritten = (
        f" · searched for: {answer.rewritten_query}"
        if answer.rewritten_query and answer.rewritten_query != ""
        else ""
    )
    console.print(
        f"[{style}]confidence: {answer.confidence}[/{style}][dim] · {answer.intent}"
        f" · {total:.0f} ms · session {answer.session_id}{rewritten}[/dim]",
        highlight=False,
    )
