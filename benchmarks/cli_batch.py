"""Runs many `citewise` command lines in one process, for `compare_commits.py`: reads JSONL
requests ({"key": ..., "argv": [...]}) and writes one JSONL record per request ({"key",
"exit", "stdout"}), calling the CLI entry point of whichever citewise is on PYTHONPATH.

    PYTHONPATH=<checkout>/src python benchmarks/cli_batch.py citewise.cli:main IN.jsonl OUT.jsonl \
        [<checkout>/src]

With the last argument, it refuses to run unless citewise was imported from that folder (an
installed citewise elsewhere would otherwise answer for the checkout).

Standard library only, so it runs unchanged against the code of any commit; the command-line
contract (`--json` on stdout) is what two commits are compared on.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path


def load_entry_point(spec: str) -> Callable[[], object]:
    module_name, _, attr = spec.partition(":")
    entry: Callable[[], object] = getattr(importlib.import_module(module_name), attr)
    return entry


def run_one(entry: Callable[[], object], argv: list[str]) -> tuple[int, str]:
    """The exit code and standard output of `citewise <argv>`."""
    out = io.StringIO()
    sys.argv = ["citewise", *argv]
    code = 0
    with contextlib.redirect_stdout(out):
        try:
            entry()
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    return code, out.getvalue()


def main() -> None:
    spec, requests, results = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    entry = load_entry_point(spec)
    if len(sys.argv) > 4:
        imported = Path(importlib.import_module("citewise").__file__ or "").resolve()
        if not imported.is_relative_to(Path(sys.argv[4]).resolve()):
            raise SystemExit(f"citewise was imported from {imported}, not from {sys.argv[4]}")
    with results.open("w") as sink:
        for line in requests.read_text().splitlines():
            if not line.strip():
                continue
            request = json.loads(line)
            code, stdout = run_one(entry, request["argv"])
            sink.write(json.dumps({"key": request["key"], "exit": code, "stdout": stdout}) + "\n")
            sink.flush()


if __name__ == "__main__":
    main()
