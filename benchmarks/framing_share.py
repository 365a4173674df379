"""How many of a folder's chunks are framing blocks ingest labels (`text.blocks`: preamble,
recitals, signature, notices, contents, furniture), the chunks the `unembedded_blocks`
setting keeps without a vector.

    PYTHONPATH=src .venv/bin/python benchmarks/framing_share.py FOLDER [FOLDER …] \
        [--max-files N] [--json FILE]

Each folder is parsed and chunked as ingest does (no store, no embedding); `--max-files`
takes the first N files by name (a sample of a large folder).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from folder_chunks import chunks_of, report_folders, supported_files


def labels(folder: Path, max_files: int | None = None) -> dict[str, object]:
    started = time.perf_counter()
    files = supported_files(folder, max_files)
    kinds: Counter[str] = Counter(c.label for c in chunks_of(files))
    chunks = sum(kinds.values())
    framing = chunks - kinds[""]
    return {
        "folder": str(folder), "files": len(files), "chunks": chunks,
        "framing": framing, "framing_share": round(framing / chunks, 4) if chunks else 0.0,
        "by_label": {k: n for k, n in sorted(kinds.items()) if k},
        "seconds": round(time.perf_counter() - started, 1),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--max-files", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    return report_folders(args.folders, lambda folder: labels(folder, args.max_files), args.json)


if __name__ == "__main__":
    sys.exit(main())
