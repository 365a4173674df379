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
import json
import sys
import time
from collections import Counter
from pathlib import Path


def labels(folder: Path, max_files: int | None = None) -> dict[str, object]:
    from tokenizers import Tokenizer

    from citewise.embed.minilm.weights import bundled_model_dir
    from citewise.ingest.chunking import ChunkingOptions, chunk_document
    from citewise.ingest.parsers import is_supported, parse_file

    tok = Tokenizer.from_file(str(bundled_model_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()

    def count(text: str) -> int:
        return len(tok.encode(text, add_special_tokens=False).ids)

    started = time.perf_counter()
    kinds: Counter[str] = Counter()
    files = sorted(p for p in folder.rglob("*") if p.is_file() and is_supported(p))
    files = files[:max_files] if max_files else files
    for path in files:
        try:
            parsed = parse_file(path)
        except Exception:  # a file the parser refuses has no chunks
            continue
        kinds.update(c.label for c in chunk_document(parsed, count, ChunkingOptions()).children)
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
    rows = []
    for folder in args.folders:
        rows.append(labels(folder, args.max_files))
        print(json.dumps(rows[-1]), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
