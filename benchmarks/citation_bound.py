"""How far citation precision follows the page that ranks first: for every lookup, multi and
compare question of an eval set, the full answer flow (fresh session each), then whether the
first passage's page is a gold page, whether a gold page is among the first ten passages,
and which of the cited pages are gold.

    .venv/bin/python benchmarks/citation_bound.py ../shared/eval/dev.jsonl \
        --data-dir ~/.citewise/eval/html-9314f817 [--quiet]

The data dir is a store over the set's corpus (for the dev set, the one `citewise eval`
builds). Nothing is written to it. Cited pages are marked G (gold), T (not gold, the first
passage's page) or x (neither); the totals split the citations by whether the first
passage's page is gold, which is what bounds precision when answers keep to that page.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from citewise.app import Assistant
from citewise.chat.assistant import ChatAssistant
from citewise.chat.memory import SQLiteMemory
from citewise.evaluation.dataset import load_items

TYPES = ("lookup", "multi", "compare")


def marks(cited: list[str], gold: set[str], top: str | None) -> str:
    """One letter per cited page: G gold, T the first passage's page, x another page."""
    return "".join("G" if c in gold else "T" if c == top else "x" for c in cited)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", type=Path)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--quiet", action="store_true", help="print the totals only")
    args = parser.parse_args()
    items = [i for i in load_items(args.questions) if i.type in TYPES and i.gold]
    totals: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp, Assistant(data_dir=args.data_dir) as assistant:
        chat = ChatAssistant(assistant, memory=SQLiteMemory(Path(tmp) / "memory.db"))
        try:
            for n, item in enumerate(items):
                gold = {g.file for g in item.gold}
                answer = chat.ask(item.question, session_id=f"bound-{n}")
                pages = [h.source for h in answer.sources]
                top = pages[0] if pages else None
                cited = [c.source for c in answer.citations]
                side = "first page gold" if top in gold else "first page not gold"
                totals[f"{side}: questions"] += 1
                totals[f"{side}: citations"] += len(cited)
                totals[f"{side}: gold citations"] += sum(c in gold for c in cited)
                totals["gold page in first ten"] += bool(gold & set(pages))
                if not args.quiet:
                    print(
                        f"{item.id:6} first {'gold' if top in gold else 'other':5}"
                        f" gold in ten {'yes' if gold & set(pages) else 'no ':3}"
                        f" cited {marks(cited, gold, top) or '-':5} {top}"
                    )
        finally:
            chat.close()
    all_cited = sum(v for k, v in totals.items() if k.endswith(": citations"))
    gold_cited = sum(v for k, v in totals.items() if k.endswith(": gold citations"))
    for key in sorted(totals):
        print(f"{key}: {totals[key]}")
    if all_cited:
        print(f"citation precision {gold_cited}/{all_cited} = {gold_cited / all_cited:.3f}")


if __name__ == "__main__":
    main()
