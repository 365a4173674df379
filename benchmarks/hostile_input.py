"""Peak memory and outcome of ingesting hostile files, one case per process, then all of them
together in one folder (the acceptance case: a DOCX that inflates to 1 GB among good files).

    .venv/bin/python benchmarks/hostile_input.py [--json benchmarks/results/hostile_input.json]
        [--src DIR]   # measure another checkout's citewise (e.g. the code before hardening)
        [--only "200 MB text"] [--text-mb 20] [--embedder local] [--env KEY=VALUE] [--merge]
    --only runs the cases whose label holds the text (no whole-folder run); --text-mb sets
    the size of the large text file; --env sets a variable for the child (e.g. a raised
    CITEWISE_MAX_FILE_BYTES); --merge updates those cases in an existing --json file;
    --suffix is appended to the labels (", limit raised").

Files come from tests/hardening/hostile_files.py. Each case runs `Assistant.ingest` on a
folder holding just that file, in a fresh process with the hashing embedder (the embedder
is not what is measured); peak RSS is the child's VmHWM (ru_maxrss would also count the
RSS of the forked parent before exec). "baseline" is one small good
file: the cost of Python, citewise and its parsers before any hostile input.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from hardening.hostile_files import hostile_folder  # noqa: E402

CHILD = r"""
import json, re, sys, time
from citewise.assistant import Assistant
started = time.perf_counter()
with Assistant(data_dir=sys.argv[2], embedder=sys.argv[3]) as a:
    report = a.ingest([sys.argv[1]])
print(json.dumps({
    "outcomes": [[o.source, o.status, o.reason] for o in report.outcomes],
    "chunks": sum(o.chunks for o in report.outcomes),
    "seconds": time.perf_counter() - started,
    "peak_mb": int(re.search(r"VmHWM:\s+(\d+)", open("/proc/self/status").read())[1]) / 1024,
}))
"""
CASES = {
    "baseline": ["otters.md"],
    "zip bomb DOCX (1 MB -> 1 GB)": ["bomb.docx"],
    "zip bomb, lying headers (300 MB)": ["liar.docx"],
    "70,000-member DOCX": ["swarm.docx"],
    "HTML nested 50,000 deep": ["deep.html"],
    "200 MB text file": ["huge.log"],  # the label follows --text-mb
    "2,000-page PDF": ["ledger.pdf"],
    "PDF with a 6000x6000 image": ["poster.pdf"],
    "cp1252 text": ["menu.txt"],
    "text named .pdf": ["image.pdf"],
    "control characters in name": ["we\x1bird\nname.txt"],
    "symlink loop": ["loop-a.txt", "loop-b.txt"],
}


def run_case(
    folder: Path,
    data: Path,
    src: Path,
    embedder: str = "hashing",
    extra: dict[str, str] | None = None,
) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(src), **(extra or {})}
    run = subprocess.run(
        [sys.executable, "-c", CHILD, str(folder), str(data), embedder],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    if run.returncode != 0:
        return {"error": run.stderr.strip().splitlines()[-1:], "exit": run.returncode}
    result: dict[str, object] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def _isolate(files: Path, names: list[str], target: Path) -> None:
    target.mkdir(parents=True)
    for name in names:
        source = files / name
        if source.is_symlink():
            (target / name).symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target / name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--only", default="")
    parser.add_argument("--text-mb", type=int, default=200)
    parser.add_argument("--embedder", default="hashing")
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--merge", action="store_true")
    parser.add_argument("--suffix", default="", help="appended to each case's label")
    args = parser.parse_args()
    extra = dict(item.split("=", 1) for item in args.env)
    cases = {label.replace("200 MB", f"{args.text_mb} MB"): names for label, names in CASES.items()}
    cases = {label + args.suffix: names for label, names in cases.items() if args.only in label}
    results: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        work = Path(tmp)
        started = time.perf_counter()
        hostile_folder(work / "all", text_bytes=args.text_mb * 2**20)
        print(f"made the files in {time.perf_counter() - started:.1f} s", flush=True)
        for i, (label, names) in enumerate(cases.items()):
            folder = work / f"case{i}"
            _isolate(work / "all", names, folder)
            results[label] = run_case(folder, work / f"data{i}", args.src, args.embedder, extra)
            shutil.rmtree(folder)
            _print(label, results[label])
        if not args.only:
            whole = run_case(work / "all", work / "data-all", args.src, args.embedder, extra)
            results["whole folder"] = whole
            _print("whole folder", whole)
        for result in results.values():
            result.update(embedder=args.embedder, env=extra)
    print()
    print("| case | outcome | peak RSS MB | seconds |")
    print("| --- | --- | --- | --- |")
    for label, result in results.items():
        print(f"| {label} | {_outcome(result)} | {_num(result, 'peak_mb')} | "
              f"{_num(result, 'seconds')} |")  # fmt: skip
    if args.json:
        if args.merge and args.json.exists():
            results = {**json.loads(args.json.read_text(encoding="utf-8")), **results}
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


def _outcome(result: dict[str, object]) -> str:
    if "error" in result:
        return f"crashed: {result['error']}"
    outcomes = result["outcomes"]
    assert isinstance(outcomes, list)
    if len(outcomes) > 2:
        counts: dict[str, int] = {}
        for _, status, _ in outcomes:
            counts[status] = counts.get(status, 0) + 1
        return ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    return "; ".join(f"{status}: {reason}" if reason else status for _, status, reason in outcomes)


def _num(result: dict[str, object], key: str) -> str:
    value = result.get(key)
    return (
        f"{value:.0f}"
        if isinstance(value, float) and key == "peak_mb"
        else (f"{value:.1f}" if isinstance(value, float) else "-")
    )


def _print(label: str, result: dict[str, object]) -> None:
    print(f"{label:36} {_num(result, 'peak_mb'):>6} MB  {_outcome(result)[:110]}", flush=True)


if __name__ == "__main__":
    main()
