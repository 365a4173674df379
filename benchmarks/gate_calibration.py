"""Calibrates the relevance gate (retrieve/gate.py) on check sets: runs each question of the
chosen half through the answer flow with the gate recording its evidence instead of deciding,
then reports, for the configured weights and for the best found by a grid search, the gate's
false abstentions (answerable questions refused; those whose fact is among the first three
passages counted apart) and false passes (unanswerable questions let through), per set.

    python benchmarks/gate_calibration.py --data-dir DIR --sets licences,governance,policy,dev
    python benchmarks/gate_calibration.py --data-dir DIR --sets ... --half test   # report only

Tune on the tuning halves (default); look at the test halves only to report. The gate's weights
decide for the LLM path; without an LLM a refusal on the score alone is left to the extractive
answerer's calibrated outcome (`GateDecision.firm`), so there only its firm refusals count.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from check_sets import SETS, CheckSet, legacy_items

from citewise.assistant.inside import inside
from citewise.evaluation.answers import run_answers
from citewise.evaluation.dataset import load_items
from citewise.evaluation.harness import eval_data_dir
from citewise.retrieve import gate as gate_module
from citewise.retrieve.gate import GateDecision, GateEvidence, GateOptions


@dataclass(frozen=True)
class Row:
    set: str
    id: str
    half: str
    answerable: bool
    in_top3: bool  # the fact is among the first three passages (answerable only)
    answered: bool  # the answer flow, gate open, gave an answer holding must_contain
    evidence: GateEvidence


def collect(check: CheckSet, base: Path, half: str) -> list[Row]:
    from citewise.assistant import Assistant
    from citewise.chat.memory import SQLiteMemory

    items = (
        legacy_items(check.name, check.questions) if check.legacy else load_items(check.questions)
    )
    items = [i for i in items if half == "all" or i.half == half]
    items = [i for i in items if i.type in ("lookup", "multi", "compare", "unanswerable")]
    seen: list[GateEvidence] = []
    real_decide = gate_module.RelevanceGate.decide

    def recording(self: gate_module.RelevanceGate, question, passages, vector) -> GateDecision:  # type: ignore[no-untyped-def]
        decision = real_decide(self, question, passages, vector)
        seen.append(decision.evidence)
        return GateDecision(not decision.evidence.missing, "recorded", decision.evidence, 1.0)

    gate_module.RelevanceGate.decide = recording  # type: ignore[method-assign]
    corpus = check.corpus()
    rows: list[Row] = []
    try:
        with (
            tempfile.TemporaryDirectory() as tmp,
            Assistant(data_dir=eval_data_dir(base, corpus)) as a,
        ):
            a.ingest([corpus])
            chat = Assistant(
                settings=a.settings,
                embedder=inside(a).embedder(),
                memory=SQLiteMemory(Path(tmp) / "memory.db"),
            )
            try:
                for item in items:
                    seen.clear()
                    [result] = run_answers(chat, [item])
                    if not seen:
                        continue
                    rows.append(
                        Row(
                            check.name,
                            item.id,
                            item.half,
                            item.type != "unanswerable",
                            bool(result.first_three),
                            result.must_contain >= 1.0 and not result.abstained,
                            seen[-1],
                        )
                    )
            finally:
                chat.close()
    finally:
        gate_module.RelevanceGate.decide = real_decide  # type: ignore[method-assign]
    return rows


def passes(ev: GateEvidence, opts: GateOptions) -> bool:
    return not ev.missing and ev.score(opts) >= opts.threshold


def errors(rows: Sequence[Row], opts: GateOptions) -> tuple[int, int, int]:
    """(answerable refused, of them with the fact in the first three, unanswerable passed)."""
    refused = [r for r in rows if r.answerable and not passes(r.evidence, opts)]
    passed = [r for r in rows if not r.answerable and passes(r.evidence, opts)]
    return len(refused), sum(r.in_top3 for r in refused), len(passed)


def search(rows: Sequence[Row]) -> GateOptions:
    """The weights with the fewest errors, a false pass weighing twice a false abstention
    (an invented answer costs more than a refusal); ties go to the lower threshold."""
    best: tuple[float, GateOptions] | None = None
    for w10 in range(0, 11):
        for t100 in range(20, 121):
            opts = GateOptions(threshold=t100 / 100, coverage_weight=w10 / 10)
            refused, _, passed = errors(rows, opts)
            cost = refused + 2 * passed
            if best is None or cost < best[0]:
                best = (cost, opts)
    assert best is not None
    return best[1]


def report(rows: Sequence[Row], opts: GateOptions, label: str) -> None:
    print(f"{label}: threshold {opts.threshold:.2f}, coverage weight {opts.coverage_weight:.1f}")
    print(f"  {'set':<12}{'answerable':>11}{'refused':>9}{'(in top3)':>10}{'unanswerable':>13}"
          f"{'passed':>8}")  # fmt: skip
    for name in dict.fromkeys(r.set for r in rows):
        mine = [r for r in rows if r.set == name]
        refused, in_top3, passed = errors(mine, opts)
        answerable = sum(r.answerable for r in mine)
        print(f"  {name:<12}{answerable:>11}{refused:>9}{in_top3:>10}"
              f"{len(mine) - answerable:>13}{passed:>8}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--sets", default="licences,governance,policy,dev")
    parser.add_argument("--half", choices=("tune", "test", "all"), default="tune")
    parser.add_argument("--rows", type=Path, help="write the evidence rows here (JSON)")
    parser.add_argument("--from-rows", type=Path, help="read evidence rows instead of running")
    parser.add_argument("--threshold", type=float, help="report these weights too")
    parser.add_argument("--coverage-weight", type=float, default=GateOptions().coverage_weight)
    args = parser.parse_args()
    if args.from_rows:
        raw = [r for r in json.loads(args.from_rows.read_text()) if args.half in ("all", r["half"])]
        rows = [
            Row(
                **{
                    **r,
                    "evidence": GateEvidence(
                        **{**r["evidence"], "missing": tuple(r["evidence"]["missing"])}
                    ),
                }
            )
            for r in raw
        ]
    else:
        wanted = [s for s in args.sets.split(",") if s]
        rows = []
        for check in SETS:
            if check.name in wanted:
                rows += collect(check, args.data_dir, args.half)
                print(f"{check.name}: {len(rows)} rows", file=sys.stderr)
    if args.rows:
        args.rows.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    report(rows, GateOptions(), "configured")
    if args.half == "tune":
        report(rows, search(rows), "best on these rows")
    elif args.half == "test" and args.threshold is not None:
        report(rows, GateOptions(args.threshold, args.coverage_weight), "given")


if __name__ == "__main__":
    main()
