"""How many of a folder's chunks need a vector of their own: chunks whose embedded text is the
same after whitespace share one (`Store.share_vectors`, keyed by `text.embed_key`).

    PYTHONPATH=src .venv/bin/python benchmarks/embed_share.py FOLDER [FOLDER …] [--json FILE]

Each folder is parsed and chunked as ingest does (no store, no embedding). Per folder:
chunks, distinct embedded texts (what is embedded now), and distinct chunk texts without the
title/section prefix the embedded text starts with (what would be embedded if that context
were not part of the vector).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from folder_chunks import chunks_of, report_folders, supported_files


def shares(folder: Path) -> dict[str, object]:
    from citewise.text.embed_key import embed_key

    started = time.perf_counter()
    chunks = 0
    embed_keys: set[str] = set()
    text_keys: set[str] = set()
    files = supported_files(folder)
    for child in chunks_of(files):
        chunks += 1
        embed_keys.add(embed_key(child.embed_text))
        text_keys.add(embed_key(child.text))
    embedded = len(embed_keys)
    return {
        "folder": str(folder), "files": len(files), "chunks": chunks,
        "distinct_embedded_texts": embedded,
        "shared_share": round(1 - embedded / chunks, 4) if chunks else 0.0,
        "distinct_chunk_texts": len(text_keys),
        "shared_share_without_context": round(1 - len(text_keys) / chunks, 4) if chunks else 0.0,
        "seconds": round(time.perf_counter() - started, 1),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    return report_folders(args.folders, shares, args.json)


if __name__ == "__main__":
    sys.exit(main())
