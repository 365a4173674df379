"""A passage of a message's attachment is shown as `message.eml › attachment` in the CLI's
search results and answers' citations, its section without the attachment's heading."""

from __future__ import annotations

import io

from rich.console import Console

from citewise.cli.render.answer import render_answer
from citewise.cli.render.tables import render_search
from citewise.types import Answer, Citation, Hit, SearchResult

SECTION = "Dock repairs > › report.pdf > Costs"


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, color_system=None), out


def test_a_search_hit_in_an_attachment_names_it_beside_the_message() -> None:
    hit = Hit(
        rank=1, chunk_id=7, doc_id=1, source="repairs.eml", title="Dock repairs", page=None,
        page_end=None, section=SECTION, score=1.0, text="Bolts cost 40.", parent_id=7,
    )  # fmt: skip
    console, out = _console()
    render_search(SearchResult(query="bolts", hits=(hit,), timings_ms={}), console)
    assert "1. repairs.eml › report.pdf › Dock repairs > Costs" in out.getvalue()


def test_a_citation_of_an_attachment_names_it_beside_the_message() -> None:
    cited = Citation(n=1, source="repairs.eml", page=2, section=SECTION, chunk_id=7, quote="40")
    answer = Answer(answer="Bolts cost 40 [1].", intent="lookup", citations=(cited,), sources=(),
                    grounded=True, confidence="high", session_id="s", timings_ms={})  # fmt: skip
    console, out = _console()
    render_answer(answer, console)
    assert "[1] repairs.eml › report.pdf, p. 2 › Dock repairs > Costs" in out.getvalue()
