"""How far citation precision follows the page that ranks first: for every lookup, multi and
compare question of an eval set, the full answer flow (fresh session each), then whether the
first passage's page is a gold page, whether a gold page is among the first ten passages,
and which of the cited pages are gold.

    .venv/bin/python benchmarks/experiments/citation_bound.py benchmarks/check_sets/dev.jsonl \
        --data-dir ~/.citewise/eval/html-9314f817 [--quiet]

The data dir is a store over the set's corpus (for the dev set, the one `citewise eval`
builds). Nothing is written to it. Cited pages are marked G (gold), T (not gold, the first
passage's page) or x (neither); the totals split the citations by whether the first
passage's page is gold, which is what bounds precision when answers keep to that page.
"""

from __future__ import annotations

from question_runs import chat_over, question_set_args

from citewise.evaluation.dataset import load_items

TYPES = ("lookup", "multi", "compare")


def marks(cited: list[str], gold: set[str], top: str | None) -> str:
    """One letter per cited page: G gold, T the first passage's page, x another page."""
    return "".join("G" if c in gold else "T" if c == top else "x" for c in cited)


def main() -> None:
    args = question_set_args(__doc__.splitlines()[0])
    items = [i for i in load_items(args.questions) if i.type in TYPES and i.gold]
    # per side (first page gold or not): questions, citations, gold citations
    sides = {True: [0, 0, 0], False: [0, 0, 0]}
    gold_in_ten = 0
    with chat_over(args.data_dir) as chat:
        for n, item in enumerate(items):
            gold = {g.file for g in item.gold}
            answer = chat.ask(item.question, session_id=f"bound-{n}")
            pages = [h.source for h in answer.sources]
            top = pages[0] if pages else None
            cited = [c.source for c in answer.citations]
            side = sides[top in gold]
            side[0] += 1
            side[1] += len(cited)
            side[2] += sum(c in gold for c in cited)
            gold_in_ten += bool(gold & set(pages))
            if not args.quiet:
                print(
                    f"{item.id:6} first {'gold' if top in gold else 'other':5}"
                    f" gold in ten {'yes' if gold & set(pages) else 'no ':3}"
                    f" cited {marks(cited, gold, top) or '-':5} {top}"
                )
    for first_gold, (questions, cited_n, gold_n) in sides.items():
        label = "gold" if first_gold else "not gold"
        print(f"first page {label}: {questions} questions, {gold_n} of {cited_n} citations gold")
    print(f"a gold page among the first ten: {gold_in_ten} of {len(items)} questions")
    all_cited = sum(v[1] for v in sides.values())
    gold_cited = sum(v[2] for v in sides.values())
    if all_cited:
        print(f"citation precision {gold_cited}/{all_cited} = {gold_cited / all_cited:.3f}")


if __name__ == "__main__":
    main()
