"""Whole first ingests of one corpus by two code trees (or settings), side by side.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/ingest_ab.py CORPUS \\
        --side main=/work/main/src --side branch=src [--side NAME=SRC,ENV=VALUE …] \\
        [--files N] [--rounds 1] [--json FILE]

    (main before #42, for the filings acceptance: git archive 304bc24 src | tar -x -C /tmp/base)

Each side ingests CORPUS (or N files spread over it) into a fresh store, in a process of its
own with PYTHONPATH=SRC (and the given environment), sides interleaved round by round so
they see the same load: seconds, chunks stored, chunks/s, the process's peak RSS (VmHWM) and
its CPU seconds. `uptime`'s load average is recorded beside each. Each side's embedding graph
is built (or found in the model cache) first, untimed, so no side pays for its export.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPT = """
import json, resource, sys, time
from pathlib import Path
from citewise.assistant import Assistant
from citewise.ingest.parsers import is_supported
corpus, files, data = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
paths = sorted(p for p in corpus.rglob('*') if p.is_file() and is_supported(p))
paths = paths[:: max(1, len(paths) // files)][:files] if files else [corpus]
started = time.perf_counter()
with Assistant(data_dir=data) as a:
    r = a.ingest(paths)
seconds = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_SELF)
status = Path('/proc/self/status').read_text()
hwm = next(int(l.split()[1]) for l in status.splitlines() if l.startswith('VmHWM'))
print(json.dumps({'files': len(r.outcomes), 'chunks': r.chunks_embedded,
    'seconds': round(seconds, 1), 'chunks_per_s': round(r.chunks_embedded / seconds, 1),
    'cpu_s': round(usage.ru_utime + usage.ru_stime, 1), 'peak_rss_mb': round(hwm / 1024)}))
"""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def side(spec: str) -> tuple[str, Path, dict[str, str]]:
    name, _, rest = spec.partition("=")
    src, *settings = rest.split(",")
    env = dict(item.split("=", 1) for item in settings)
    return name, Path(src).resolve(), env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--side", action="append", required=True, help="NAME=SRC[,ENV=VALUE]")
    parser.add_argument("--files", type=int, default=0, help="0: the whole corpus")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    for _name, src, extra in map(side, args.side):  # untimed: each side's cached graph
        env = os.environ | {"PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1"} | extra
        export = [sys.executable, "-m", "citewise.embed.minilm.export"]
        subprocess.run(export, env=env, check=True, capture_output=True)
    rows = []
    for number in range(args.rounds):
        for name, src, extra in map(side, args.side):
            env = os.environ | {"PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1"} | extra
            before = load()
            with tempfile.TemporaryDirectory(prefix="ingest-ab-") as data:
                done = subprocess.run(
                    [sys.executable, "-c", SCRIPT, str(args.corpus), str(args.files), data],
                    capture_output=True, text=True, env=env, check=True,
                )  # fmt: skip
            got = json.loads(done.stdout.strip().splitlines()[-1])
            row = {"round": number + 1, "side": name, "src": str(src), **extra, **got}
            rows.append(row | {"load_before": before, "load_after": load()})
            print(json.dumps(rows[-1]), flush=True)
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
