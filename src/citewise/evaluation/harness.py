"""Glue between the CLI, the Assistant and the retrieval evaluation."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from citewise.assistant import Assistant
from citewise.config import load_settings
from citewise.errors import InputError
from citewise.evaluation.answers import run_answers, summarize_answers
from citewise.evaluation.dataset import load_items
from citewise.evaluation.runner import Aggregate, aggregate, run_retrieval
from citewise.types import SearchMode, SearchResult

MODES: tuple[SearchMode, ...] = ("hybrid", "keyword", "vector")


def eval_data_dir(data_dir: Path | None, corpus: Path) -> Path:
    """A store per corpus under the data dir, so re-running reuses the ingest."""
    if not corpus.is_dir():
        raise InputError(f"corpus folder not found: {corpus}")
    base = data_dir or load_settings().data_dir
    resolved = str(corpus.resolve())
    digest = hashlib.sha1(resolved.encode()).hexdigest()[:8]
    return base / "eval" / f"{corpus.resolve().name}-{digest}"


def run_eval(
    assistant: Assistant, question_set: Path, modes: Sequence[str]
) -> dict[str, list[Aggregate]]:
    items = load_items(question_set)
    out: dict[str, list[Aggregate]] = {}
    for mode in modes:
        if mode not in MODES:
            raise InputError(f"unknown mode '{mode}': use {', '.join(MODES)}")

        def search(query: str, m: SearchMode, k: int) -> SearchResult:
            return assistant.search(query, k=k, mode=m)

        out[mode] = aggregate(run_retrieval(items, search, mode))
    return out


@dataclass(frozen=True, slots=True)
class ScoredAnswers:
    summary: dict[str, dict[str, float]]
    items: list[dict[str, object]]


def run_answer_eval(assistant: Assistant, question_set: Path) -> ScoredAnswers:
    items = load_items(question_set)
    # a private memory file, so evaluation sessions never mix with the user's
    memory = assistant.settings.data_dir / "eval-memory.db"
    with assistant.with_memory(f"sqlite:///{memory.resolve()}") as private:
        results = run_answers(private, items)
    return ScoredAnswers(summarize_answers(results), [asdict(r) for r in results])
