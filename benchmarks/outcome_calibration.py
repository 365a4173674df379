"""The three outcomes of an answer without an LLM (`answer` | `passage` | `none`): collects each
question's outcome evidence, fits the calibration, and reports the outcome figures per set.

    python benchmarks/outcome_calibration.py collect --data-dir DIR --half tune --out tune.jsonl
    python benchmarks/outcome_calibration.py fit tune.jsonl      # writes the calibration module
    python benchmarks/outcome_calibration.py report test.jsonl   # one row a set
    python benchmarks/outcome_calibration.py report all.jsonl --half test   # one half's rows

`collect` asks every question of the chosen sets and half (stores under DIR/eval, as
`check_sets.py` builds them) and writes one line a question: its `answer_kind`, must_contain,
whether the first (three) sources hold the fact, whether the citation quotes hold it, and the
`OutcomeFeatures` the extractive answerer computed. `fit` fits a logistic regression (L2,
Newton steps) of "the documents hold the answer" (an answerable question whose first three
passages hold its fact: 1; an unanswerable one: 0) on those features, per embedder, and a
second one of "the answer states it" over the questions answered (`answer` kind) — right
answers 1, wrong ones and answers to unanswerable questions 0 — whose threshold keeps
`RIGHT_KEPT` of the right answers; it writes `src/citewise/extractive/outcome_calibration.py`.
Collect what `fit` reads with `--plain-answers` (every answer shown as one: the second
regression's own decision off), as the answers it judges are those.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import check_sets  # noqa: E402

from citewise.assistant.inside import inside  # noqa: E402
from citewise.evaluation.answers import contains_all, passages_contain, states_value  # noqa: E402
from citewise.evaluation.dataset import load_items  # noqa: E402
from citewise.evaluation.harness import eval_data_dir  # noqa: E402
from citewise.extractive.compose import ExtractiveResult  # noqa: E402
from citewise.extractive.extractor import Extractor  # noqa: E402
from citewise.types import NOT_FOUND  # noqa: E402

ANSWERABLE = ("lookup", "multi", "compare")
MODULE = HERE.parent / "src/citewise/extractive/outcome_calibration.py"
L2 = 1.0
RIGHT_KEPT = 0.95  # share of right answers the answer threshold keeps as answers


def collect(data_dir: Path, sets: Sequence[str], halves: Sequence[str]) -> list[dict[str, Any]]:
    from citewise.assistant import Assistant
    from citewise.chat.memory import SQLiteMemory

    last: list[ExtractiveResult] = []
    original = Extractor.extract

    def recording(self: Extractor, *args: Any, **kwargs: Any) -> ExtractiveResult:
        result = original(self, *args, **kwargs)
        last.append(result)
        return result

    Extractor.extract = recording  # type: ignore[method-assign]
    rows: list[dict[str, Any]] = []
    for check in check_sets.SETS:
        if sets and check.name not in sets:
            continue
        items = (
            check_sets.legacy_items(check.name, check.questions)
            if check.legacy
            else load_items(check.questions)
        )
        items = [i for i in items if i.half in halves]
        corpus = check.corpus()
        root = eval_data_dir(data_dir, corpus)
        with tempfile.TemporaryDirectory() as tmp, Assistant(data_dir=root) as assistant:
            assistant.ingest([corpus])
            chat = Assistant(
                settings=assistant.settings,
                embedder=inside(assistant).embedder(),
                memory=SQLiteMemory(Path(tmp) / "memory.db"),
            )
            embedder = inside(assistant).embedder().name
            for item in items:
                session = f"outcome-{item.id}"
                question, want = item.question, item.must_contain
                if item.turns:
                    for turn in item.turns[:-1]:
                        chat.ask(turn.question, session_id=session)
                    question, want = item.turns[-1].question, item.turns[-1].must_contain
                last.clear()
                started = time.perf_counter()
                answer = chat.ask(question, session_id=session)
                ms = (time.perf_counter() - started) * 1000
                texts = [h.text for h in answer.sources]
                quotes = [c.quote for c in answer.citations]
                evidence = dict(getattr(last[-1], "evidence", ())) if last else {}
                # the outcome as an older commit gives it (`answer_kind` is newer)
                plain = "none" if answer.answer == NOT_FOUND or not answer.citations else "answer"
                kind = getattr(answer, "answer_kind", plain)
                rows.append({
                    "set": check.name, "id": item.id, "type": item.type, "half": item.half,
                    "embedder": embedder, "kind": kind, "answer": answer.answer,
                    "must": bool(want) and contains_all(answer.answer, want),
                    "want": list(want),
                    "pass1": bool(want) and passages_contain(texts[:1], want),
                    "pass3": bool(want) and passages_contain(texts[:3], want),
                    "quote_ok": bool(want) and passages_contain([" ".join(quotes)], want),
                    "states_value": kind == "answer"
                    and states_value(answer.answer),
                    "ms": round(ms, 1), "features": evidence,
                })  # fmt: skip
                inside(chat).memory.delete(session)
            chat.close()
        print(f"{check.name}: {len(items)} questions", file=sys.stderr)
    return rows


def _label(row: dict[str, Any]) -> int | None:
    if row["type"] in ANSWERABLE and row["want"]:
        return int(row["pass3"])
    if row["type"] == "unanswerable":
        return 0
    return None


def _answer_label(row: dict[str, Any]) -> int | None:
    if row["kind"] != "answer":
        return None
    if row["type"] in ANSWERABLE and row["want"]:
        return int(row["must"])
    if row["type"] == "unanswerable":
        return 0
    return None


def _regression(
    used: Sequence[dict[str, Any]], labels: Sequence[int]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Weights (bias last) of the L2-regularised logistic regression, and its probabilities."""
    from citewise.extractive.outcome import REGRESSED

    x = np.array([[r["features"][k] for k in REGRESSED] for r in used], dtype=np.float64)
    y = np.array(labels, dtype=np.float64)
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    reg = np.eye(xb.shape[1]) * L2
    reg[-1, -1] = 0.0  # the bias is not shrunk
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        grad = xb.T @ (p - y) + reg @ w
        hess = (xb.T * (p * (1 - p))) @ xb + reg
        w -= np.linalg.solve(hess, grad)
    return w, 1.0 / (1.0 + np.exp(-(xb @ w)))


def _as_calibration(w: np.ndarray[Any, Any], threshold: float) -> dict[str, object]:
    from citewise.extractive.outcome import REGRESSED

    weights = {k: round(float(v), 4) for k, v in zip(REGRESSED, w[:-1], strict=True)}
    return {"weights": weights, "bias": round(float(w[-1]), 4), "threshold": round(threshold, 2)}


def fit_answer(rows: Sequence[dict[str, Any]]) -> dict[str, object] | None:
    """ "The answer states it" over one embedder's answered rows; its threshold keeps
    `RIGHT_KEPT` of the right answers (at most the plain 0.5)."""
    used = [r for r in rows if r["features"] and _answer_label(r) is not None]
    labels = [_answer_label(r) or 0 for r in used]
    if not used or not any(labels) or all(labels):
        return None
    w, p = _regression(used, labels)
    right = sorted(float(pi) for pi, y in zip(p, labels, strict=True) if y)
    cut = right[int((1 - RIGHT_KEPT) * len(right))]
    threshold = min(0.5, math.floor(cut * 100) / 100)
    wrong = sum(1 for pi, y in zip(p, labels, strict=True) if not y and pi < threshold)
    print(f"  answer: n={len(used)} right={sum(labels)} threshold={threshold:.2f} "
          f"wrong shown as passages={wrong}")  # fmt: skip
    return _as_calibration(w, threshold)


def fit(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, object]]:
    """Per embedder: weights and bias of the L2-regularised logistic regression, and the
    answer calibration (`fit_answer`) under "answer"."""
    out: dict[str, dict[str, object]] = {}
    for embedder in sorted({r["embedder"] for r in rows}):
        mine = [r for r in rows if r["embedder"] == embedder]
        used = [r for r in mine if r["features"] and _label(r) is not None]
        y = np.array([_label(r) for r in used], dtype=np.float64)
        w, p = _regression(used, [_label(r) or 0 for r in used])
        # a wrong `passage` is labelled as not answering, a wrong `none` hides what the
        # documents hold: the threshold keeps every refused question whose first passage
        # holds the fact on the passage side (at most the plain 0.5)
        refused = [
            float(pi)
            for pi, r in zip(p, used, strict=True)
            if r["kind"] in ("none", "passage") and r["type"] in ANSWERABLE and r["pass1"]
        ]
        threshold = min([0.5, *(math.floor(x * 100) / 100 - 0.01 for x in refused)])
        out[embedder] = _as_calibration(w, max(0.2, threshold))
        acc = float(np.mean((p >= 0.5) == (y == 1)))
        print(f"{embedder}: n={len(y)} positives={int(y.sum())} accuracy={acc:.2f} "
              f"threshold={max(0.2, threshold):.2f}")  # fmt: skip
        answer = fit_answer(mine)
        if answer is not None:
            out[embedder]["answer"] = answer
    return out


def write_module(calibrations: dict[str, dict[str, object]]) -> None:
    body = json.dumps(calibrations, indent=4, sort_keys=True)
    MODULE.write_text(
        '"""Outcome calibrations by embedder name: written by benchmarks/outcome_calibration.py'
        " fit\n(a logistic regression over `OutcomeFeatures`, tuning halves of every check"
        ' set)."""\n\n'
        f"CALIBRATIONS: dict[str, dict[str, object]] = {body}\n"
    )
    ruff = Path(sys.executable).with_name("ruff")
    if ruff.is_file():  # the house format (trailing commas)
        subprocess.run([str(ruff), "format", "-q", str(MODULE)], check=False)


def report(rows: Sequence[dict[str, Any]]) -> str:
    lines = [
        "| set | answerable | must | pass@1 | pass@3 | false none (fact in 1st) | passage | "
        "unanswerable handled | invented | quote ok | p50 ms |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == name]
        ans = [r for r in mine if r["type"] in ANSWERABLE and r["want"]]
        first = [r for r in ans if r["pass1"]]
        unans = [r for r in mine if r["type"] == "unanswerable"]
        answered = [r for r in ans if r["kind"] == "answer" and r["must"]]
        ms = sorted(r["ms"] for r in mine)

        def share(k: int, n: int) -> str:
            return f"{k / n:.2f}" if n else "–"

        lines.append(
            f"| {name} | {len(ans)} | {share(sum(r['must'] for r in ans), len(ans))} "
            f"| {share(sum(r['pass1'] for r in ans), len(ans))} "
            f"| {share(sum(r['pass3'] for r in ans), len(ans))} "
            f"| {sum(r['kind'] == 'none' for r in first)}/{len(first)} "
            f"| {sum(r['kind'] == 'passage' for r in ans)} "
            f"| {share(sum(r['kind'] in ('none', 'passage') for r in unans), len(unans))} "
            f"| {sum(r['states_value'] for r in unans)} "
            f"| {share(sum(r['quote_ok'] for r in answered), len(answered))} "
            f"| {ms[len(ms) // 2] if ms else 0:.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--data-dir", type=Path, required=True)
    c.add_argument("--sets", default="")
    c.add_argument("--half", default="tune", choices=("tune", "test", "all"))
    c.add_argument("--out", type=Path, required=True)
    c.add_argument(
        "--plain-answers", action="store_true", help="show every answer as one (what fit reads)"
    )
    f = sub.add_parser("fit")
    f.add_argument("rows", type=Path)
    r = sub.add_parser("report")
    r.add_argument("rows", type=Path)
    r.add_argument("--half", default="all", choices=("tune", "test", "all"), help="rows reported")
    args = parser.parse_args()
    if args.command == "collect":
        halves = ("tune", "test") if args.half == "all" else (args.half,)
        sets = [s for s in args.sets.split(",") if s]
        if args.plain_answers:
            from citewise.extractive import outcome

            # `unsure` reads it from its own module
            outcome.states_confidently = lambda *_: True  # type: ignore[assignment]
        rows = collect(args.data_dir, sets, halves)
        args.out.write_text("".join(json.dumps(x) + "\n" for x in rows))
        return
    rows = [json.loads(line) for line in args.rows.read_text().splitlines() if line.strip()]
    if args.command == "fit":
        write_module(fit([x for x in rows if x["half"] == "tune"]))
    else:
        print(report([x for x in rows if args.half in ("all", x["half"])]))


if __name__ == "__main__":
    main()
