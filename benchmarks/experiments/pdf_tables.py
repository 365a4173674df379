"""Statement pages read as rows, measured on FinanceBench 10-K PDFs: ingest a folder of them
into a fresh store, then for each FinanceBench question on those documents (tuning half
only) search the question and count

- page@5: a top-5 passage from the question's document covers an evidence page;
- quote@10: every gold quote is held by a top-10 passage from the question's document on
  an evidence page. Gold quotes: a figure taken directly from a statement: its line item
  with the figure, in one passage; a computed figure: each line item the justification
  names ('named: Net income.'); else the figures of the justification
  ('(5308-992-1221)/4476'); else the evidence's first line of substance. Held: letters
  and digits in order, case folded.

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/pdf_tables.py \\
        --corpus DIR_OF_PDFS --questions financebench_open_source.jsonl --data-dir DIR

The PDFs and questions come from the FinanceBench repository (patronus-ai/financebench:
pdfs/, data/financebench_open_source.jsonl); nothing is downloaded here. Prints the ingest
time, chunk count and both figures, then one line per question.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path

from citewise.assistant import Assistant
from citewise.types.positions import alnum_index

_NAMED = re.compile(r"(?:named|was):\s*(.+?)\.(?:\s|$)")
_DIRECT = re.compile(r"directly extracted", re.I)
_AMOUNT = re.compile(r"^\$?(-?\d+)(?:\.\d+)?$")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True)
class Question:
    id: str
    doc: str
    text: str
    pages: frozenset[int]  # 1-based evidence pages
    quotes: tuple[tuple[str, ...], ...]  # each group held by one passage


def tune_half(item_id: str) -> bool:
    return int(hashlib.sha1(item_id.encode()).hexdigest(), 16) % 2 == 0


def gold_quotes(row: dict[str, object]) -> tuple[tuple[str, ...], ...]:
    """A figure taken directly from a statement: its line item and the figure, held by one
    passage; a computed one: each line item it names; else the figures the justification
    computes with; else the evidence's first line of substance."""
    justification = str(row.get("justification") or "")
    named = list(dict.fromkeys(n.strip() for n in _NAMED.findall(justification)))
    amount = _AMOUNT.match(str(row.get("answer") or "").replace(",", ""))
    if named and amount and _DIRECT.search(justification):
        return ((named[0], f"{int(amount.group(1)):,}"),)
    if named:
        return tuple((n,) for n in named)
    numbers = [n for n in _NUMBER.findall(justification) if len(n.replace(",", "")) >= 3]
    if numbers:
        unique = dict.fromkeys(f"{float(n.replace(',', '')):,.0f}" for n in numbers)
        return tuple((n,) for n in unique)
    evidence = row["evidence"]
    assert isinstance(evidence, list)
    lines = [" ".join(ln.split()) for ln in str(evidence[0]["evidence_text"]).splitlines()]
    first = next(ln for ln in lines if len(ln) >= 25 and "table of contents" not in ln.lower())
    return ((first[:120],),)


def load(questions: Path, docs: set[str]) -> list[Question]:
    out = []
    for line in questions.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["doc_name"] not in docs or not tune_half(row["financebench_id"]):
            continue
        pages = frozenset(int(e["evidence_page_num"]) + 1 for e in row["evidence"])
        item = Question(
            row["financebench_id"], row["doc_name"], row["question"], pages, gold_quotes(row)
        )
        out.append(item)
    return out


def _covers(first: int | None, last: int | None, pages: frozenset[int]) -> bool:
    return first is not None and any(first <= p <= (last or first) for p in pages)


def holds(text: str, quote: str) -> bool:
    return alnum_index(quote)[0] in alnum_index(text)[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--questions", type=Path, required=True)
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument(
        "--within-document", action="store_true",
        help="search only the question's document (the page, not the document, is measured)",
    )  # fmt: skip
    args = ap.parse_args()
    docs = {p.stem for p in args.corpus.glob("*.pdf")}
    questions = load(args.questions, docs)
    with Assistant(data_dir=args.data_dir) as assistant:
        start, cpu = time.perf_counter(), time.process_time()
        report = assistant.ingest([args.corpus])
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        chunks = sum(o.chunks for o in report.outcomes)
        print(f"ingest: {len(docs)} PDFs, {report.pages} pages, {chunks} chunks, "
              f"{seconds:.1f} s wall, {cpu:.1f} s CPU")  # fmt: skip
        pages5 = quotes10 = 0
        for q in questions:
            sources = [f"{q.doc}.pdf"] if args.within_document else []
            hits = assistant.search(q.text, k=10, sources=sources).hits
            own = [h for h in hits if Path(h.source).stem == q.doc]
            on_page = [h for h in own if _covers(h.page, h.page_end, q.pages)]
            page5 = any(h in hits[:5] for h in on_page)
            quote10 = all(
                any(all(holds(h.text, g) for g in group) for h in on_page) for group in q.quotes
            )
            pages5 += page5
            quotes10 += quote10
            print(f"  {q.id} {q.doc}: page@5={int(page5)} quote@10={int(quote10)} "
                  f"gold={list(q.quotes)}")  # fmt: skip
        n = max(len(questions), 1)
        print(f"questions {len(questions)}: page@5 {pages5}/{len(questions)} = {pages5 / n:.2f}, "
              f"quote@10 {quotes10}/{len(questions)} = {quotes10 / n:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
