"""Check-set corpus "financebench": long financial reports that look alike (SEC 10-K, 10-Q,
8-K filings and earnings releases of 30-odd US companies, often several years of one company),
with the questions of FinanceBench (Patronus AI, https://github.com/patronus-ai/financebench,
CC BY-NC 4.0) converted to our check-set schema.

Neither the PDFs nor the question text may enter our repository (non-commercial licence), so
both are written to the cache dir only:

    ~/.cache/citewise/check-sets/financebench/*.pdf          the reports the questions use
    ~/.cache/citewise/check-sets/financebench.jsonl          the questions, our schema

    python benchmarks/corpora/build_financebench.py --source SNAPSHOT [--out DIR]

SNAPSHOT is a clone (or bare git dir) of the FinanceBench repository. Each question becomes a
`lookup` whose gold is its evidence: the file, the 1-based page (FinanceBench counts from 0)
and a quote, one line of the evidence text that citewise's own PDF parser finds on that page
(the line holding the answer's number, else the label line before it, else the longest line).
`must_contain` is the answer's number when the page states it, else empty (retrieval only).
Questions whose report is absent from the snapshot become `unanswerable` near misses when no
other report in the folder covers that company and period. `names_document` marks questions
that name the company and a year. Items whose quote the parser cannot find are dropped; the
build prints how many.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from _financebench_turns import conversations, summaries
from _writers import default_root

from citewise.ingest.parsers import parse_file

_WS = re.compile(r"\s+")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
QUESTIONS = "data/financebench_open_source.jsonl"
DOCUMENTS = "data/financebench_document_information.jsonl"


@dataclass(frozen=True)
class Source:
    """The FinanceBench snapshot: a work tree or a bare git dir."""

    root: Path

    def _bare(self) -> bool:
        return not (self.root / "data").is_dir()

    def text(self, path: str) -> str:
        if self._bare():
            return subprocess.run(
                ["git", "-C", str(self.root), "show", f"HEAD:{path}"],
                check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
        return (self.root / path).read_text(encoding="utf-8")

    def copy(self, path: str, dest: Path) -> bool:
        """Copies one file; False when the snapshot lacks its content (an LFS pointer or a
        blob left out of the snapshot)."""
        if self._bare():
            done = subprocess.run(
                ["git", "-C", str(self.root), "cat-file", "blob", f"HEAD:{path}"],
                capture_output=True,
            )  # fmt: skip
            data = done.stdout if done.returncode == 0 else b""
        else:
            file = self.root / path
            data = file.read_bytes() if file.is_file() else b""
        if not data.startswith(b"%PDF"):
            return False
        if not dest.is_file() or dest.read_bytes() != data:  # a stable folder for re-ingests
            dest.write_bytes(data)
        return True


def norm(text: str) -> str:
    return _WS.sub(" ", text).strip().lower()


@cache
def pages_of(path: Path) -> dict[int, str]:
    """Normalised text per page as citewise's parser reads it (as `check_gold.py` does)."""
    out: dict[int, list[str]] = {}
    for block in parse_file(path).blocks:
        if block.page is not None:
            out.setdefault(block.page, []).extend([*block.heading_path[-1:], block.text])
    return {page: norm(" ".join(parts)) for page, parts in out.items()}


def answer_numbers(answer: str) -> list[str]:
    """The numbers of three characters or more the answer states, without thousands
    separators or a zero fraction: "$1577.00" -> ["1577"], "0.96" -> ["0.96"]."""
    out: list[str] = []
    for raw in _NUMBER.findall(answer):
        value = raw.replace(",", "").rstrip(".")
        if "." in value:
            value = value.rstrip("0").rstrip(".")
        # a short number ("20") occurs on every page: it proves nothing
        if len(value) >= 3 and not _YEAR.fullmatch(value) and value not in out:
            out.append(value)
    return out


def _squash(text: str) -> str:
    return re.sub(r"[\s,]+", "", text.lower())


def _with_commas(number: str) -> str:
    whole, _, frac = number.partition(".")
    grouped = f"{int(whole):,}" if whole.isdigit() else whole
    return grouped + (f".{frac}" if frac else "")


def quote_candidates(evidence: str, numbers: list[str]) -> tuple[list[str], list[str]]:
    """Lines of the evidence text in order of preference: those holding an answer number
    and the label lines just before them; then the rest, longest first. Long lines are cut
    to their first 25 words."""
    lines = [_WS.sub(" ", line).strip() for line in evidence.splitlines()]
    lines = [line for line in lines if line]
    forms = {f for n in numbers for f in (n, _with_commas(n))}
    holding = [i for i, line in enumerate(lines) if any(f in line for f in forms)]
    anchored: list[str] = []
    for i in holding:
        anchored.append(lines[i])
        before = (lines[j] for j in range(i - 1, -1, -1))
        label = next((line for line in before if re.search("[A-Za-z]{3}", line)), "")
        if label:
            anchored.append(label)
    return _quotable(anchored), _quotable(sorted(lines, key=len, reverse=True))


def _quotable(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        words = line.split()
        if len(words) < 4 or len(line) < 20:
            continue
        cut = " ".join(words[:25])
        if cut not in out:
            out.append(cut)
    return out


def find_quote(path: Path, page: int, evidence: str, numbers: list[str]) -> tuple[str, int] | None:
    """The first line holding the answer's number, or its label, found on the page (or the
    next or previous page); else the first other line found there and on at most two pages
    of the document (a line every statement repeats says nothing); else any found there."""
    text = pages_of(path)
    anchored, rest = quote_candidates(evidence, numbers)
    found: list[tuple[str, int]] = []
    for quote in anchored + rest:
        for p in (page, page + 1, page - 1):
            if norm(quote) in text.get(p, ""):
                if quote in anchored or sum(norm(quote) in t for t in text.values()) <= 2:
                    return quote, p
                found.append((quote, p))
                break
    return found[0] if found else None


def names_document(question: str, company: str) -> bool:
    """Whether the question names the company (a word of its name) and a year."""
    words = [w for w in re.split(r"[\W_]+", company.lower()) if len(w) > 1 or w.isdigit()]
    q = question.lower().replace(" ", "")
    named = any(w in q for w in words) or company.lower().replace(" ", "") in q
    return named and bool(re.search(r"(?:19|20)\d\d|\bfy\d\d\b", question.lower()))


def half(item_id: str) -> str:
    return "test" if int(hashlib.sha1(item_id.encode()).hexdigest(), 16) % 2 else "tune"


def _covered(company: str, period: str, present: set[str]) -> bool:
    """Whether another report in the folder may hold the figures of `company`'s `period`:
    one of the same company from that year or the next two (they repeat earlier years)."""
    year = int(period[:4])
    for name in present:
        other, _, rest = name.partition("_")
        m = re.match(r"(\d{4})", rest)
        if other.upper() == company.upper() and m and year <= int(m[1]) <= year + 2:
            return True
    return False


def build(source: Source, out: Path, questions_file: Path) -> None:
    rows = [json.loads(x) for x in source.text(QUESTIONS).splitlines() if x.strip()]
    wanted = sorted({r["doc_name"] for r in rows})
    out.mkdir(parents=True, exist_ok=True)
    present = {name for name in wanted if source.copy(f"pdfs/{name}.pdf", out / f"{name}.pdf")}
    items: list[dict[str, object]] = []
    dropped: list[str] = []
    company_of: dict[str, str] = {}
    for row in rows:
        item_id = "fb" + row["financebench_id"].rsplit("_", 1)[-1]
        doc = row["doc_name"]
        company_of[item_id] = row["company"]
        base: dict[str, object] = {
            "id": item_id, "question": row["question"], "split": half(item_id),
            "names_document": names_document(row["question"], row["company"]),
        }  # fmt: skip
        if doc not in present:
            company, _, rest = doc.partition("_")
            if _covered(company, rest, present):
                dropped.append(f"{item_id}: {doc} absent, but another year may hold it")
                continue
            items.append({
                **base, "type": "unanswerable", "answer": "not in the documents",
                "must_contain": [], "gold": [],
                "notes": f"the folder holds no {row['company']} report for {rest}",
            })  # fmt: skip
            continue
        numbers = answer_numbers(row["answer"])
        gold: list[dict[str, object]] = []
        page_text = ""
        for ev in row["evidence"]:
            name = ev.get("doc_name", doc)
            if name not in present:
                continue
            path = out / f"{name}.pdf"
            found = find_quote(path, ev["evidence_page_num"] + 1, ev["evidence_text"], numbers)
            if found is not None:
                quote, page = found
                gold.append({"file": path.name, "page": page, "quote": quote})
                page_text += pages_of(path).get(page, "")
        if not gold:
            dropped.append(f"{item_id}: no evidence line found on its page in {doc}")
            continue
        must = [n for n in numbers if _squash(n) in _squash(page_text)][:1]
        items.append({
            **base, "type": "lookup", "style": "paraphrase", "answer": row["answer"],
            "must_contain": must, "gold": gold,
        })  # fmt: skip
    lookups = [i for i in items if i["type"] == "lookup"]
    items += conversations(lookups, company_of, half) + summaries(lookups, company_of, half)
    questions_file.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    kinds = {
        k: sum(1 for i in items if i["type"] == k)
        for k in ("lookup", "unanswerable", "conversation", "summary")
    }
    print(f"{len(present)} of {len(wanted)} reports copied to {out}")
    print(f"{len(items)} questions ({kinds}) written to {questions_file}; {len(dropped)} dropped")
    for reason in dropped:
        print("  dropped", reason)


def main() -> None:
    parser = argparse.ArgumentParser(description="Build the 'financebench' check-set corpus.")
    parser.add_argument("--source", type=Path, required=True, help="FinanceBench snapshot")
    parser.add_argument("--out", type=Path, default=default_root() / "financebench")
    args = parser.parse_args()
    out: Path = args.out
    build(Source(args.source), out, out.with_name(out.name + ".jsonl"))


if __name__ == "__main__":
    main()
