"""Renders evaluation aggregates as a table or JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console
from rich.table import Table

from citewise.evaluation.runner import Aggregate


def render_tables(by_mode: Mapping[str, Sequence[Aggregate]], console: Console) -> None:
    for mode, rows in by_mode.items():
        table = Table(title=f"retrieval: {mode}", show_edge=False)
        for col in ("group", "n", "file@1", "file@5", "file@10", "quote@5", "MRR", "cover@5"):
            table.add_column(col, justify="right" if col != "group" else "left")
        table.add_column("p50 ms", justify="right")
        for a in rows:
            table.add_row(
                a.group, str(a.n),
                f"{a.file_hit[1]:.2f}", f"{a.file_hit[5]:.2f}", f"{a.file_hit[10]:.2f}",
                f"{a.quote_hit[5]:.2f}", f"{a.mrr:.2f}", f"{a.coverage_at_5:.2f}",
                f"{a.p50_ms:.1f}",
            )  # fmt: skip
        console.print(table)


def to_json(by_mode: Mapping[str, Sequence[Aggregate]]) -> dict[str, object]:
    return {mode: {a.group: a.to_json() for a in rows} for mode, rows in by_mode.items()}


ANSWER_COLUMNS = (
    "n", "must_contain", "first_passage", "first3", "citation_precision", "citation_recall",
    "abstained", "states_value", "intent_ok", "last_turn_file@5", "answer_chars", "p50_ms",
)  # fmt: skip


_HEADERS = {
    "must_contain": "must", "first_passage": "pass@1", "first3": "pass@3",
    "citation_precision": "cite prec", "citation_recall": "cite rec", "answer_chars": "chars",
}  # fmt: skip


def render_answer_table(summary: Mapping[str, Mapping[str, float]], console: Console) -> None:
    table = Table(title="answers (full flow)", show_edge=False)
    table.add_column("group")
    for col in ANSWER_COLUMNS:
        table.add_column(_HEADERS.get(col, col), justify="right")
    for group, row in summary.items():
        table.add_row(group, *(_cell(row.get(col)) for col in ANSWER_COLUMNS))
    if not console.is_terminal:  # piped output: readable columns rather than 80 wide
        console = Console(file=console.file, width=max(console.width, 132))
    console.print(table)


def _cell(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.0f}" if float(value).is_integer() and value > 1 else f"{value:.2f}"
