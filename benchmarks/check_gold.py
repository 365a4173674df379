"""Checks a question set's gold: every gold quote occurs in the text citewise's own parser
extracts from its file (on its page, when the gold names one), and every `must_contain`
string occurs in the reference answer. Exits 1 on any failure.

    python benchmarks/check_gold.py benchmarks/check_sets/licences.jsonl \
        --corpus ~/.cache/citewise/check-sets/licences
    python benchmarks/check_gold.py SET.jsonl --corpus DIR --find "words to locate"

Text is compared after collapsing whitespace and lowercasing (as the dev set's quotes were
checked); `--find` prints the file and page where a phrase occurs, for writing gold.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from functools import cache
from pathlib import Path

from citewise.ingest.parsers import parse_file

_WS = re.compile(r"\s+")


def norm(text: str) -> str:
    return _WS.sub(" ", text).strip().lower()


def squash(text: str) -> str:
    return re.sub(r"[\s,]+", "", text.lower())


@cache
def pages_of(path: Path) -> dict[int | None, str]:
    """Normalised text per page (None: the whole document) of one parsed file."""
    doc = parse_file(path)
    out: dict[int | None, list[str]] = {None: []}
    for block in doc.blocks:
        parts = [*block.heading_path[-1:], block.text]
        out[None].extend(parts)
        if block.page is not None:
            out.setdefault(block.page, []).extend(parts)
    return {page: norm(" ".join(parts)) for page, parts in out.items()}


def check_item(row: dict[str, object], corpus: Path) -> list[str]:
    errors: list[str] = []
    turns = row.get("turns") or [row]
    assert isinstance(turns, list)
    for turn in turns:
        golds = turn.get("gold", [])
        answer = str(turn.get("answer", row.get("answer", "")))
        for want in turn.get("must_contain", []):
            if turn is row and row.get("type") == "unanswerable":
                break
            if squash(want) not in squash(answer):
                errors.append(f"must_contain {want!r} not in the reference answer")
        for gold in golds:
            path = corpus / gold["file"]
            if not path.is_file():
                errors.append(f"gold file missing: {gold['file']}")
                continue
            text = pages_of(path)
            page = gold.get("page")
            if page is not None and page not in text:
                errors.append(f"{gold['file']}: no page {page}")
                continue
            if norm(gold["quote"]) not in text[page]:
                where = [p for p, t in text.items() if p and norm(gold["quote"]) in t]
                hint = f" (found on page {where})" if where else ""
                errors.append(
                    f"{gold['file']} p{page}: quote not found{hint}: {gold['quote'][:70]!r}"
                )
    if row.get("type") == "unanswerable" and row.get("gold"):
        errors.append("unanswerable with gold")
    return errors


def find(corpus: Path, phrase: str) -> None:
    wanted = norm(phrase)
    for path in sorted(p for p in corpus.rglob("*") if p.is_file()):
        try:
            text = pages_of(path)
        except Exception as exc:
            print(f"{path.relative_to(corpus)}: {exc}")
            continue
        for page, body in text.items():
            if page is None and len(text) > 1:
                continue
            if wanted in body:
                print(f"{path.relative_to(corpus)} page={page}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", type=Path)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--find", help="print where this phrase occurs, then exit")
    args = parser.parse_args()
    if args.find:
        find(args.corpus, args.find)
        return
    rows = [json.loads(x) for x in args.questions.read_text().splitlines() if x.strip()]
    failures = 0
    ids = [str(r["id"]) for r in rows]
    if len(set(ids)) != len(ids):
        print("duplicate ids")
        failures += 1
    for row in rows:
        for error in check_item(row, args.corpus):
            failures += 1
            print(f"{row['id']}: {error}")
    print(f"{len(rows)} questions, {failures} problems")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
