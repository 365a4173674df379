"""Runs every check set through the full answer flow and prints one table per set and half:
answer must_contain, the passage ceiling (the answer's first source, and first three, hold
must_contain), citation precision, abstention and invented values on unanswerable questions,
the mean answer length in characters, and the three outcomes apart: answers, labelled closest
passages and `none`s, false `none`s among questions whose first passage holds the fact,
unanswerable questions handled (`none` or a labelled passage) and those answered with a
stated value, and citation quotes holding the fact (citewise.evaluation.outcomes).

    python benchmarks/check_sets.py --data-dir DIR                 # every set, tuning halves
    python benchmarks/check_sets.py --data-dir DIR --half test     # what to report
    python benchmarks/check_sets.py --data-dir DIR --sets licences,dev --half all --json
    python benchmarks/check_sets.py --data-dir DIR --half test --llm stand-in:faithful,abstain

Sets: dev (benchmarks/check_sets/dev.jsonl over the Python 3.11 docs), the check sets in
benchmarks/check_sets/ (corpora built by benchmarks/corpora/build_<set>.py when missing,
workplace's, papers', contracts' and decks' from the repository snapshots those builders
name;
pg_manual reads the PostgreSQL 15 manual of package postgresql-doc-15 as installed) and
the older answer-only sets in benchmarks/questions/ ({"q", "must"} lines, no gold: their
citation precision is blank). `financebench` (SEC filings, CC BY-NC: docs/check-sets.md) is
cache-only: built by benchmarks/corpora/build_financebench.py from a FinanceBench snapshot,
never downloaded, and run only when named (`--sets financebench`). Each corpus is ingested
into its own store under DIR/eval/<folder>-<hash> (the store `citewise eval` uses), reused
when unchanged.
Halves: an item's `split`, else the parity of the SHA-1 of its id (docs/check-sets.md).
Tune on `tune`; look at `test` only to report.

`--llm stand-in:MODE[,MODE…]` answers with the stand-in LLM (citewise.testing.standin_llm)
instead of extractively and reports the LLM path's figures per set and mode (gold in context
beside search's quote@10, kept, invented claims reaching the user, citation accuracy,
declines honoured; benchmarks/standin_figures.py says how each is counted).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citewise.assistant.inside import inside
from citewise.evaluation.answers import AnswerResult, run_answers
from citewise.evaluation.dataset import EvalItem, load_items
from citewise.evaluation.harness import eval_data_dir
from citewise.evaluation.outcomes import outcome_figures

HERE = Path(__file__).resolve().parent
PYTHON_DOCS = Path("/usr/share/doc/python3.11/html")
PG_DOCS = Path("/usr/share/doc/postgresql-doc-15/html")
sys.path.insert(0, str(HERE / "corpora"))
from _writers import default_root  # noqa: E402


def _dev_set() -> Path:
    return Path(os.environ.get("CITEWISE_DEV_SET") or HERE / "check_sets" / "dev.jsonl")


def _built(name: str) -> Callable[[], Path]:
    def corpus() -> Path:
        out = default_root() / name
        if not out.is_dir():
            script = HERE / "corpora" / f"build_{name}.py"
            subprocess.run([sys.executable, str(script), "--out", str(out)], check=True)
        return out

    return corpus


def _copied(name: str, copies: Sequence[tuple[str, str]]) -> Callable[[], Path]:
    """A corpus folder assembled from installed files: (source file or folder, target dir)."""

    def corpus() -> Path:
        out = default_root() / name
        if not out.is_dir():
            for source, target in copies:
                dest = out / target
                dest.mkdir(parents=True, exist_ok=True)
                src = Path(source)
                if src.is_dir():
                    shutil.copytree(src, dest, dirs_exist_ok=True)
                else:
                    shutil.copy(src, dest / src.name)
        return out

    return corpus


def _fixed(path: Path) -> Callable[[], Path]:
    return lambda: path


class MissingCache(RuntimeError):
    """A cache-only set that has not been built on this machine."""


def _cached(name: str, how: str) -> Callable[[], Path]:
    """A corpus only the cache dir holds (its licence keeps it out of the repository):
    never built or downloaded here, `how` says how to build it."""

    def corpus() -> Path:
        out = default_root() / name
        if not out.is_dir() or not (default_root() / f"{name}.jsonl").is_file():
            raise MissingCache(f"{name}: {out} and {out}.jsonl are not built; {how}")
        return out

    return corpus


def _nodejs() -> Path:
    out = default_root() / "nodejs_api"
    if not out.is_dir():
        out.mkdir(parents=True)
        for md in sorted(Path("/usr/share/doc/nodejs/api").glob("*.md")):
            if md.name != "all.md":
                shutil.copy(md, out / md.name)
    return out


@dataclass(frozen=True)
class CheckSet:
    name: str
    questions: Path
    corpus: Callable[[], Path]
    legacy: bool = False
    # built into the cache only (not in the repository): run when named in --sets
    cache_only: bool = False


LEGACY = HERE / "questions"
SETS: tuple[CheckSet, ...] = (
    CheckSet("dev", _dev_set(), _fixed(PYTHON_DOCS)),
    CheckSet("licences", HERE / "check_sets/licences.jsonl", _built("licences")),
    CheckSet("governance", HERE / "check_sets/governance.jsonl", _built("governance")),
    CheckSet("policy", HERE / "check_sets/policy.jsonl", _built("policy")),
    CheckSet("pg_manual", HERE / "check_sets/pg_manual.jsonl", _fixed(PG_DOCS)),
    CheckSet("workplace", HERE / "check_sets/workplace.jsonl", _built("workplace")),
    CheckSet("papers", HERE / "check_sets/papers.jsonl", _built("papers")),
    CheckSet("contracts", HERE / "check_sets/contracts.jsonl", _built("contracts")),
    CheckSet("decks", HERE / "check_sets/decks.jsonl", _built("decks")),
    CheckSet("python_a", LEGACY / "python_lookups_a.jsonl", _fixed(PYTHON_DOCS), True),
    CheckSet("python_b", LEGACY / "python_lookups_b.jsonl", _fixed(PYTHON_DOCS), True),
    CheckSet(
        "valgrind", LEGACY / "valgrind_manual.jsonl",
        _fixed(Path("/usr/share/doc/valgrind/html")), True,
    ),
    CheckSet(
        "pdf_specs", LEGACY / "pdf_specs.jsonl",
        _copied("pdf_specs", [
            ("/usr/share/doc/libtasn1-doc/libtasn1.pdf", "."),
            ("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf", "."),
        ]), True,
    ),
    CheckSet("nodejs", LEGACY / "nodejs_api.jsonl", _nodejs, True),
    CheckSet(
        "financebench", default_root() / "financebench.jsonl",
        _cached("financebench", "build it with python benchmarks/corpora/build_financebench.py"
                " --source SNAPSHOT (a clone of github.com/patronus-ai/financebench)"),
        cache_only=True,
    ),
    CheckSet(
        "gnu_tools", LEGACY / "gnu_tools.jsonl",
        _copied("gnu_tools", [
            ("/usr/share/doc/bc/bc.html", "bc"), ("/usr/share/doc/bzip2/manual.html", "bzip2"),
            ("/usr/share/doc/time/time.html", "time"), ("/usr/share/doc/libffi8/html", "libffi"),
            ("/usr/share/doc/python3-pip/html", "pip"),
        ]), True,
    ),
)  # fmt: skip


def legacy_items(name: str, path: Path) -> list[EvalItem]:
    """{"q", "must", "unanswerable"} lines as lookups and unanswerable items without gold."""
    items = []
    for i, line in enumerate(x for x in path.read_text().splitlines() if x.strip()):
        raw = json.loads(line)
        kind = "unanswerable" if raw.get("unanswerable") else "lookup"
        items.append(EvalItem(f"{name}-{i:03d}", kind, raw["q"], "", tuple(raw["must"]), ()))
    return items


CHITCHAT = "greeting/garbage/off_topic"
GROUPS = (
    ("answerable", ("lookup", "multi", "compare")),
    ("lookup", ("lookup",)),
    ("multi", ("multi",)),
    ("compare", ("compare",)),
    ("conversation", ("conversation",)),
    ("summary", ("summary",)),
    ("unanswerable", ("unanswerable",)),
    ("chit-chat", (CHITCHAT,)),
)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def table_rows(
    results: Sequence[AnswerResult], items: dict[str, EvalItem]
) -> dict[str, dict[str, float | None]]:
    """Per group: n, must, pass@1, pass@3, cite precision, abstained, invented, chars, and
    the outcome figures (`outcome_figures`)."""
    out: dict[str, dict[str, float | None]] = {}
    for group, kinds in GROUPS:
        rows = [r for r in results if r.type in kinds]
        if not rows:
            continue
        unanswerable = group == "unanswerable"
        with_gold = [r for r in rows if _has_gold(items[r.id])]
        cited = sum(r.cited for r in with_gold)
        out[group] = {
            "n": len(rows),
            "must": None
            if unanswerable or group == "chit-chat"
            else _mean([r.must_contain for r in rows]),
            "pass@1": _mean([float(r.first_passage) for r in rows if r.first_passage is not None]),
            "pass@3": _mean([float(r.first_three) for r in rows if r.first_three is not None]),
            "cite_prec": (sum(r.cited_gold for r in with_gold) / cited) if cited else None,
            "abstained": _mean([float(r.abstained) for r in rows]) if unanswerable else None,
            "invented": float(sum(r.states_value for r in rows)) if unanswerable else None,
            "chars": _mean([float(r.answer_chars) for r in rows if not r.abstained]),
            **outcome_figures(rows),
        }
        if group == "chit-chat":
            # the intent recognised, and nothing cited (benchmarks/check_sets/README.md)
            ok = [r.intent_ok and not r.cited for r in rows if r.intent_ok is not None]
            out[group]["intents"] = _mean([float(v) for v in ok])
    return out


def _has_gold(item: EvalItem) -> bool:
    return bool(item.turns[-1].gold if item.turns else item.gold)


def run_set(check: CheckSet, base: Path, halves: Sequence[str]) -> dict[str, object]:
    from citewise.assistant import Assistant
    from citewise.chat.memory import SQLiteMemory

    corpus = check.corpus()  # first: a cache-only set's questions are built with it
    if check.legacy:
        items = legacy_items(check.name, check.questions)
    else:
        items = load_items(check.questions)
    items = [i for i in items if i.half in halves]
    root = eval_data_dir(base, corpus)
    with tempfile.TemporaryDirectory() as tmp, Assistant(data_dir=root) as assistant:
        report = assistant.ingest([corpus])
        print(f"{check.name}: {report.count('ingested')} ingested, {report.count('unchanged')} "
              f"unchanged in {root}", file=sys.stderr)  # fmt: skip
        chat = Assistant(
            settings=assistant.settings,
            embedder=inside(assistant).embedder(),
            memory=SQLiteMemory(Path(tmp) / "memory.db"),
        )
        try:
            results = run_answers(chat, items)
        finally:
            chat.close()
    by_id = {i.id: i for i in items}
    out: dict[str, object] = {}
    for half in halves:
        chosen = [r for r in results if by_id[r.id].half == half]
        out[half] = {"groups": table_rows(chosen, by_id), "items": [_item(r) for r in chosen]}
    return out


def _item(r: AnswerResult) -> dict[str, object]:
    return {
        "id": r.id, "type": r.type, "must": r.must_contain, "pass@1": r.first_passage,
        "pass@3": r.first_three, "abstained": r.abstained, "states_value": r.states_value,
        "cited": r.cited, "cited_gold": r.cited_gold, "answer": r.answer, "kind": r.kind,
        "quotes_hold": r.quotes_hold, "ms": round(r.latency_ms, 1), "intent": r.intent,
        "intent_ok": r.intent_ok,
    }  # fmt: skip


COLUMNS = (
    "n", "must", "pass@1", "pass@3", "cite_prec", "abstained", "invented", "chars",
    "answers", "passages", "none", "fact@1", "false_none", "handled", "stated", "quote_ok",
    "intents",
)  # fmt: skip
COUNTS = ("n", "invented", "chars", "answers", "passages", "none", "fact@1", "false_none", "stated")


def render(name: str, half: str, groups: dict[str, dict[str, float | None]]) -> str:
    lines = [
        f"{name} ({half} half)",
        "  " + f"{'group':<13}" + "".join(f"{c:>10}" for c in COLUMNS),
    ]
    for group, row in groups.items():
        cells = "".join(f"{_cell(c, row.get(c)):>10}" for c in COLUMNS)
        lines.append("  " + f"{group:<13}" + cells)
    return "\n".join(lines)


def render_markdown(name: str, half: str, groups: dict[str, dict[str, float | None]]) -> str:
    lines = [
        f"**{name}** ({half} half)",
        "",
        "| group | " + " | ".join(COLUMNS) + " |",
        "| --- |" + " --- |" * len(COLUMNS),
    ]
    for group, row in groups.items():
        lines.append(f"| {group} | " + " | ".join(_cell(c, row.get(c)) for c in COLUMNS) + " |")
    return "\n".join(lines) + "\n"


def _cell(column: str, value: float | None) -> str:
    if value is None:
        return "–"
    if column in COUNTS:
        return f"{value:.0f}"
    return f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, help="base of the eval stores (required to run)")
    parser.add_argument("--half", choices=("tune", "test", "all"), default="tune")
    parser.add_argument("--sets", default="", help="comma-separated names (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON (with per-item rows)")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--from-json", type=Path, help="render a saved --json run instead")
    parser.add_argument("--summary", action="store_true", help="with --from-json: one row a set")
    parser.add_argument("--llm", help="stand-in:MODE[,MODE…]: answer with the stand-in LLM")
    args = parser.parse_args()
    if args.from_json:
        saved = json.loads(args.from_json.read_text())
        if STANDIN in saved:
            _print_standin(saved[STANDIN])
        elif args.summary:
            for half in ("tune", "test"):
                print(f"{half} half\n\n{render_summary(saved, half)}")
        else:
            _print_tables(saved, markdown=args.markdown)
        return
    if args.data_dir is None:
        parser.error("--data-dir is required")
    wanted = [s for s in args.sets.split(",") if s]
    unknown = set(wanted) - {s.name for s in SETS}
    if unknown:
        parser.error(f"unknown sets: {', '.join(sorted(unknown))}")
    halves = ("tune", "test") if args.half == "all" else (args.half,)
    if args.llm:
        _run_standin(args.llm, wanted, args.data_dir, halves, as_json=args.json, parser=parser)
        return
    payload: dict[str, object] = {}
    for check in SETS:
        if check.name not in wanted and (wanted or check.cache_only):
            continue
        try:
            result = run_set(check, args.data_dir, halves)
        except MissingCache as exc:
            parser.error(str(exc))
        payload[check.name] = result
        if not args.json:
            _print_tables({check.name: result}, markdown=args.markdown)
    if args.json:
        print(json.dumps(payload, indent=1, ensure_ascii=False))


SUMMARY = (
    "n", "must", "lookup", "pass@1", "pass@3", "cite_prec", "abstained", "invented", "chars",
    "passages", "false_none", "fact@1", "handled", "stated", "quote_ok",
)  # fmt: skip


def render_summary(payload: dict[str, Any], half: str) -> str:
    """One Markdown row per set: answerable (lookup + multi + compare) figures, lookups'
    must_contain, the unanswerable questions' abstention and invented values, and the
    outcomes: answerable questions shown a labelled passage, false `none`s of fact@1,
    unanswerable ones handled and answered with a stated value, quotes holding the fact."""
    lines = ["| set | " + " | ".join(SUMMARY) + " |", "| --- |" + " --- |" * len(SUMMARY)]
    for name, result in payload.items():
        if half not in result:
            continue
        groups = result[half]["groups"]
        main = groups.get("answerable", {})
        unans = groups.get("unanswerable", {})
        row = {
            **main,
            "lookup": groups.get("lookup", {}).get("must"),
            "abstained": unans.get("abstained"),
            "invented": unans.get("invented"),
            "handled": unans.get("handled"),
            "stated": unans.get("stated"),
        }
        lines.append(f"| {name} | " + " | ".join(_cell(c, row.get(c)) for c in SUMMARY) + " |")
    return "\n".join(lines) + "\n"


STANDIN = "stand-in"


def _run_standin(
    spec: str,
    wanted: Sequence[str],
    base: Path,
    halves: Sequence[str],
    *,
    as_json: bool,
    parser: argparse.ArgumentParser,
) -> None:
    from standin_figures import parse_llm, run_standin_set

    try:
        modes = parse_llm(spec)
    except ValueError as exc:
        parser.error(str(exc))
    chosen = [s for s in SETS if (s.name in wanted if wanted else not (s.legacy or s.cache_only))]
    legacy = [s.name for s in chosen if s.legacy]
    if legacy:
        parser.error(f"the stand-in answers from gold, which {', '.join(legacy)} lack")
    payload: dict[str, Any] = {}
    for check in chosen:
        try:
            corpus = check.corpus()
        except MissingCache as exc:
            parser.error(str(exc))
        payload[check.name] = run_standin_set(
            check.name, check.questions, corpus, base, halves, modes
        )
        if not as_json:
            _print_standin({check.name: payload[check.name]})
    if as_json:
        print(json.dumps({STANDIN: payload}, indent=1, ensure_ascii=False))


def _print_standin(payload: dict[str, Any]) -> None:
    from standin_figures import render

    halves = dict.fromkeys(h for by_mode in payload.values() for m in by_mode.values() for h in m)
    for half in halves:
        print(f"{half} half\n\n{render(payload, half)}", flush=True)


def _print_tables(payload: dict[str, Any], *, markdown: bool) -> None:
    for name, result in payload.items():
        for half, part in result.items():
            draw = render_markdown if markdown else render
            print(draw(name, half, part["groups"]), flush=True)
            print()


if __name__ == "__main__":
    main()
