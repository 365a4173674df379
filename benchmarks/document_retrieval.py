"""Whether search finds the right document, page and passage among many documents alike
(issue 29.6): document@1 and document@5 (a gold file is the first hit, or among the first
five), page@5 (a hit among the first five is on a gold page of a gold file) and quote@10 (a hit
among the first ten holds a gold quote), per half, for every answerable question and for those
that name their organisation and period (`names_document` in the set).

    python benchmarks/document_retrieval.py SET.jsonl --corpus DIR --data-dir DIR [--half tune]
    python benchmarks/document_retrieval.py ~/.cache/citewise/check-sets/financebench.jsonl \\
        --corpus ~/.cache/citewise/check-sets/financebench --data-dir DIR --half all \\
        --hits hits.jsonl                       # also keeps each question's first ten hits
    python benchmarks/document_retrieval.py SET.jsonl --rescore hits.jsonl --half all

The corpus is ingested into DIR/eval/<folder>-<hash> first (as `check_sets.py` does; reused
when unchanged). Settings come from the environment (`CITEWISE_EMBEDDER=hashing` …).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from citewise.assistant import Assistant
from citewise.evaluation.dataset import EvalItem, load_items
from citewise.evaluation.harness import eval_data_dir
from citewise.evaluation.metrics import contains_quote

K = 10


@dataclass(frozen=True)
class Seen:
    """What a hit is scored by."""

    source: str
    page: int | None
    page_end: int | None
    text: str


@dataclass(frozen=True)
class Found:
    id: str
    half: str
    named: bool
    document_1: bool
    document_5: bool
    page_5: bool
    quote_10: bool
    sources: tuple[str, ...]


def found(item: EvalItem, named: bool, hits: Sequence[Seen]) -> Found:
    files = {g.file for g in item.gold}
    pages = {(g.file, g.page) for g in item.gold}

    def on_page(h: Seen) -> bool:
        last = h.page_end if h.page_end is not None else h.page
        return any(
            f == h.source and p is not None and h.page is not None and h.page <= p <= (last or p)
            for f, p in pages
        )

    return Found(
        id=item.id, half=item.half, named=named,
        document_1=bool(hits) and hits[0].source in files,
        document_5=any(h.source in files for h in hits[:5]),
        page_5=any(on_page(h) for h in hits[:5]),
        quote_10=any(
            h.source == g.file and contains_quote(h.text, g.quote)
            for h in hits[:K]
            for g in item.gold
        ),
        sources=tuple(h.source for h in hits[:5]),
    )  # fmt: skip


def table(rows: Sequence[Found], halves: Sequence[str]) -> str:
    lines = ["| half | questions | n | document@1 | document@5 | page@5 | quote@10 |",
             "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for half in halves:
        for label, chosen in (
            ("all", [r for r in rows if r.half == half]),
            ("named", [r for r in rows if r.half == half and r.named]),
        ):
            if not chosen:
                continue
            n = len(chosen)
            cells = [
                f"{sum(getattr(r, m) for r in chosen) / n:.2f}"
                for m in ("document_1", "document_5", "page_5", "quote_10")
            ]
            lines.append(f"| {half} | {label} | {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", type=Path)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--hits", type=Path, help="write each question's first ten hits here")
    parser.add_argument("--rescore", type=Path, help="score the hits written by --hits")
    parser.add_argument("--half", choices=("tune", "test", "all"), default="tune")
    parser.add_argument("--json", type=Path, help="also write every question's result here")
    args = parser.parse_args()
    raw = {
        str(r["id"]): r
        for r in (json.loads(x) for x in args.questions.read_text().splitlines() if x.strip())
    }
    halves = ("tune", "test") if args.half == "all" else (args.half,)
    # a question alone, with gold: conversations and summaries are scored by check_sets.py
    items = [
        i
        for i in load_items(args.questions)
        if i.gold and i.half in halves and i.type not in ("conversation", "summary")
    ]
    if args.rescore:
        seen = {
            r["id"]: [Seen(**h) for h in r["hits"]]
            for r in (json.loads(x) for x in args.rescore.read_text().splitlines() if x.strip())
        }
        took = 0.0
    else:
        seen, took = _search(items, args.corpus, args.data_dir)
    if args.hits:
        args.hits.write_text(
            "".join(
                json.dumps({"id": i, "hits": [h.__dict__ for h in hits]}) + "\n"
                for i, hits in seen.items()
            )
        )
    rows = [
        found(i, bool(raw[i.id].get("names_document")), seen[i.id]) for i in items if i.id in seen
    ]
    print(table(rows, halves))
    print(f"{len(rows)} questions, {took:.0f} ms a search on average")
    if args.json:
        args.json.write_text("".join(json.dumps(r.__dict__) + "\n" for r in rows))


def _search(
    items: Sequence[EvalItem], corpus: Path, data_dir: Path
) -> tuple[dict[str, list[Seen]], float]:
    """Each question's first ten hits, and the mean time a search took (ms)."""
    seen: dict[str, list[Seen]] = {}
    with Assistant(data_dir=eval_data_dir(data_dir, corpus)) as assistant:
        report = assistant.ingest([corpus])
        print(f"{report.count('ingested')} ingested, {report.count('unchanged')} unchanged")
        started = time.perf_counter()
        for item in items:
            hits = assistant.search(item.question, k=K).hits
            seen[item.id] = [Seen(h.source, h.page, h.page_end, h.text) for h in hits]
        took = (time.perf_counter() - started) / max(1, len(items)) * 1000
    return seen, took


if __name__ == "__main__":
    main()
