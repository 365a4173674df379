"""Behaviour before and after a change: on every check set and the dev set, `citewise ask
--json` must give the same answer and citations at both commits, and `citewise search --json`
the same hits; the ingest of a small corpus must give the same documents and chunks.

    python benchmarks/compare_commits.py BASE HEAD --data-dir DIR [--sets policy,dev]
        [--work DIR] [--ingest-set policy | --no-ingest] [--parallel]

BASE and HEAD are commits (checked out as temporary git worktrees) or paths to checkouts.
The stores are the ones `benchmarks/check_sets.py` builds under DIR/eval/<folder>-<hash> for
the same corpora (the same CITEWISE_CHECKSETS_DIR); DIR is only read (nothing may be writing
its stores meanwhile), and a store it lacks is ingested with BASE under the work folder
(reused with the same --work). Each commit answers from its own copy of the store. Every
question of a set is asked and searched at both commits by one `cli_batch.py` process per
commit, running that commit's `citewise` entry point with PYTHONPATH=<checkout>/src; a
conversation's turns share a session. Written to the work folder: <label>.jsonl per commit
(what is compared), and the raw outputs and logs per set. Prints the differing questions;
exits 1 when there are any.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from check_sets import SETS, CheckSet, legacy_items
from commit_outputs import (
    compared_records,
    differences,
    ingest_differences,
    json_keys,
    store_snapshot,
)

from citewise.evaluation.dataset import EvalItem, load_items
from citewise.evaluation.harness import eval_data_dir

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BATCH = HERE / "cli_batch.py"
T = TypeVar("T")


@dataclass(frozen=True)
class Checkout:
    label: str
    path: Path
    entry_point: str  # the `citewise` console script, "module:function"


@contextmanager
def checked_out(label: str, ref: str, root: Path) -> Iterator[Checkout]:
    """`ref` as a checkout: the folder itself when it is one, else a detached git worktree
    of the commit, removed afterwards."""
    if Path(ref).is_dir():
        path = Path(ref).resolve()
        yield Checkout(label, path, _entry_point(path))
        return
    path = root / f"{label}-{ref.replace('/', '_')}"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet",
                    str(path), ref], check=True)  # fmt: skip
    try:
        yield Checkout(label, path, _entry_point(path))
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(path)],
                       check=False)  # fmt: skip


def _entry_point(checkout: Path) -> str:
    project = tomllib.loads((checkout / "pyproject.toml").read_text())["project"]
    return str(project["scripts"]["citewise"])


def run_batch(
    checkout: Checkout, data_dir: Path, requests: Sequence[dict[str, Any]], out: Path
) -> list[dict[str, Any]]:
    """Runs the command lines in one process of the checkout's code, on `data_dir`."""
    request_file = out.with_suffix(".requests.jsonl")
    request_file.write_text("".join(json.dumps(r) + "\n" for r in requests))
    env = {**os.environ, "PYTHONPATH": str(checkout.path / "src"),
           "CITEWISE_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1"}  # fmt: skip
    with out.with_suffix(".log").open("w") as log:
        # run from the work folder, so nothing is imported from the current directory
        subprocess.run(
            [sys.executable, str(BATCH), checkout.entry_point, str(request_file), str(out),
             str(checkout.path / "src")],
            env=env, cwd=out.parent, stderr=log, stdout=log, check=True,
        )  # fmt: skip
    return [json.loads(line) for line in out.read_text().splitlines() if line.strip()]


# -- questions ---------------------------------------------------------------------------------


def set_items(check: CheckSet) -> list[EvalItem]:
    if check.legacy:
        return legacy_items(check.name, check.questions)
    return load_items(check.questions)


def requests_for(set_name: str, items: Sequence[EvalItem]) -> list[dict[str, Any]]:
    """Per question (each turn of a conversation, in one session): ask, then search."""
    requests: list[dict[str, Any]] = []
    for item in items:
        questions = [t.question for t in item.turns] or [item.question]
        session = ["--session", f"compare-{item.id}"] if item.turns else []
        for turn, question in enumerate(questions):
            key = {"set": set_name, "id": item.id, "turn": turn}
            requests.append({"key": {**key, "kind": "ask"},
                             "argv": ["ask", question, "--json", *session]})  # fmt: skip
            requests.append({"key": {**key, "kind": "search"},
                             "argv": ["search", question, "--json"]})  # fmt: skip
    return requests


# -- ingest ------------------------------------------------------------------------------------


def compare_ingest(
    checkouts: Sequence[Checkout], corpus: Path, work: Path, *, parallel: bool
) -> list[str]:
    """Ingests `corpus` into a fresh store with each checkout and compares the stores."""

    def run(checkout: Checkout) -> dict[str, Any]:
        data = work / checkout.label / "ingest"
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir(parents=True)
        [result] = run_batch(checkout, data, [{"key": "ingest",
                             "argv": ["ingest", str(corpus), "--json"]}],
                             work / checkout.label / "ingest.jsonl")  # fmt: skip
        if result["exit"] != 0:
            raise SystemExit(f"ingest at {checkout.label} failed: see {data}.log")
        return store_snapshot(data / "citewise.db")

    before, after = each_checkout(checkouts, run, parallel=parallel)
    return ingest_differences(before, after)


# -- the run -----------------------------------------------------------------------------------


def ensure_store(check: CheckSet, base: Checkout, data_dir: Path, work: Path) -> Path:
    """The set's eval store under `data_dir`; when it has none, one under the work folder,
    ingested with BASE unless an earlier run with this work folder made it."""
    corpus = check.corpus()
    store = eval_data_dir(data_dir, corpus)
    if (store / "citewise.db").is_file():
        return store
    store = eval_data_dir(work / "stores", corpus)
    if not (store / "citewise.db").is_file():
        store.mkdir(parents=True, exist_ok=True)
        print(f"{check.name}: ingesting {corpus} into {store} (once)", file=sys.stderr)
        [result] = run_batch(base, store, [{"key": "ingest",
                             "argv": ["ingest", str(corpus), "--json"]}],
                             work / f"ingest-{check.name}.jsonl")  # fmt: skip
        if result["exit"] != 0:
            raise SystemExit(f"ingest of {check.name} failed: see {work}/ingest-{check.name}.log")
    return store


def each_checkout(
    checkouts: Sequence[Checkout], run: Callable[[Checkout], T], *, parallel: bool
) -> list[T]:
    if not parallel:
        return [run(c) for c in checkouts]
    with ThreadPoolExecutor(len(checkouts)) as pool:
        return list(pool.map(run, checkouts))


def compare_set(
    check: CheckSet, store: Path, checkouts: Sequence[Checkout], work: Path, *, parallel: bool
) -> dict[str, list[dict[str, Any]]]:
    """Each checkout's raw outputs for every question of the set, on its own copy of the
    store."""
    requests = requests_for(check.name, set_items(check))

    def run(checkout: Checkout) -> list[dict[str, Any]]:
        copy = work / checkout.label / check.name
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(store, copy)
        print(f"{check.name}: {len(requests)} requests at {checkout.label}", file=sys.stderr)
        try:
            out = work / checkout.label / f"{check.name}.raw.jsonl"
            return run_batch(checkout, copy, requests, out)
        finally:
            shutil.rmtree(copy)

    outputs = each_checkout(checkouts, run, parallel=parallel)
    return {c.label: out for c, out in zip(checkouts, outputs, strict=True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="commit or checkout folder before the change")
    parser.add_argument("head", help="commit or checkout folder after the change")
    parser.add_argument("--data-dir", type=Path, required=True, help="base of the eval stores")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--work", type=Path, help="where outputs go (default: a new temp dir)")
    parser.add_argument("--ingest-set", default="policy", help="set whose corpus is re-ingested")
    parser.add_argument("--no-ingest", action="store_true", help="skip the ingest comparison")
    parser.add_argument("--parallel", action="store_true", help="run both commits at once")
    args = parser.parse_args()
    wanted = [s for s in args.sets.split(",") if s]
    known = {s.name: s for s in SETS}
    unknown = set(wanted) - set(known) | ({args.ingest_set} - set(known))
    if unknown:
        parser.error(f"unknown sets: {', '.join(sorted(unknown))}")
    work = (args.work or Path(tempfile.mkdtemp(prefix="citewise-compare-"))).resolve()
    work.mkdir(parents=True, exist_ok=True)
    print(f"work folder: {work}", file=sys.stderr)
    with ExitStack() as stack:
        checkouts = [
            stack.enter_context(checked_out(label, ref, work))
            for label, ref in (("base", args.base), ("head", args.head))
        ]
        for checkout in checkouts:
            (work / checkout.label).mkdir(exist_ok=True)
        checks = [known[n] for n in wanted] if wanted else list(SETS)
        failed = report_sets(checks, checkouts, args.data_dir, work, parallel=args.parallel)
        if not args.no_ingest:
            corpus = known[args.ingest_set].corpus()
            found = compare_ingest(checkouts, corpus, work, parallel=args.parallel)
            print(f"\ningest of {args.ingest_set}: {len(found)} difference(s)")
            for line in found:
                print(f"  {line}")
            failed = failed or bool(found)
    raise SystemExit(1 if failed else 0)


def report_sets(
    checks: Sequence[CheckSet],
    checkouts: Sequence[Checkout],
    data_dir: Path,
    work: Path,
    *,
    parallel: bool,
) -> bool:
    """Compares every set, writes <label>.jsonl per checkout, prints what differs."""
    compared: dict[str, list[dict[str, Any]]] = {c.label: [] for c in checkouts}
    keys: dict[str, dict[str, set[str]]] = {c.label: {} for c in checkouts}
    for check in checks:
        store = ensure_store(check, checkouts[0], data_dir, work)
        raw = compare_set(check, store, checkouts, work, parallel=parallel)
        for label, records in raw.items():
            compared[label].extend(compared_records(records))
            for kind, names in json_keys(records).items():
                keys[label].setdefault(kind, set()).update(names)
    for label, records in compared.items():
        (work / f"{label}.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        )
    base, head = (c.label for c in checkouts)
    found = differences(compared[base], compared[head])
    asked = sum(r["kind"] == "ask" for r in compared[base])
    print(f"{asked} asks and {len(compared[base]) - asked} searches over "
          f"{', '.join(c.name for c in checks)}: {len(found)} differ")  # fmt: skip
    for label, fields in found:
        print(f"  {label}")
        for field in fields:
            print(f"    {field}")
    for kind in sorted(set(keys[base]) | set(keys[head])):
        gone = keys[base].get(kind, set()) - keys[head].get(kind, set())
        new = keys[head].get(kind, set()) - keys[base].get(kind, set())
        if gone or new:
            print(f"  {kind} --json keys: only at BASE {sorted(gone)}, only at HEAD {sorted(new)}")
    return bool(found)


if __name__ == "__main__":
    main()
