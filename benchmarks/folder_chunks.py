"""A folder's files parsed and chunked as ingest does them (no store, no embedding), for the
benchmarks that count what chunking makes (`embed_share.py`, `framing_share.py`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def supported_files(folder: Path, max_files: int | None = None) -> list[Path]:
    """The folder's files a parser reads, by name; the first `max_files` when given."""
    from citewise.ingest.parsers import is_supported

    files = sorted(p for p in folder.rglob("*") if p.is_file() and is_supported(p))
    return files[:max_files] if max_files else files


def chunks_of(files: list[Path]) -> Iterator[Any]:
    """Each file's child chunks with the default chunking and the bundled model's tokenizer;
    a file the parser refuses has none."""
    from tokenizers import Tokenizer

    from citewise.embed.minilm.weights import bundled_model_dir
    from citewise.ingest.chunking import ChunkingOptions, chunk_document
    from citewise.ingest.parsers import parse_file

    tok = Tokenizer.from_file(str(bundled_model_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()

    def count(text: str) -> int:
        return len(tok.encode(text, add_special_tokens=False).ids)

    for path in files:
        try:
            parsed = parse_file(path)
        except Exception:  # a file the parser refuses has no chunks
            continue
        yield from chunk_document(parsed, count, ChunkingOptions()).children


def report_folders(
    folders: list[Path], count: Callable[[Path], dict[str, object]], out: Path | None
) -> int:
    """One JSON line a folder as it is counted, and all of them in `out` when given."""
    rows = []
    for folder in folders:
        rows.append(count(folder))
        print(json.dumps(rows[-1]), flush=True)
    if out is not None:
        out.write_text(json.dumps(rows, indent=2) + "\n")
    return 0
