"""Graph extraction before and after a speed change: the same graphs, and what they cost.

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/graph_extract_speed.py \
        [--base 33388d6] [--rounds 3] [--limit N] [--cache F.pickle] [FILE ...]

The reference extractor (`graph/extract.py` and `graph/rules/` at --base) is copied out of git
into a temporary package that shares this tree's `graph/model.py` and `text/`, so both produce
the same `DocumentGraph` classes. Each document (by default the Python library HTML pages and a
few check-set PDFs, parsed and chunked by citewise's own parser and chunker) is extracted by
both; the graphs must be equal. Then CPU seconds (`time.process_time`) of each extractor over the
whole corpus, alternated for --rounds rounds.
"""

from __future__ import annotations

import argparse
import importlib
import pickle
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from citewise.embed.hashing import HashingEmbedder
from citewise.graph.extract import extract
from citewise.graph.model import ChunkText, DocumentGraph
from citewise.ingest.chunking import ChunkingOptions, chunk_document
from citewise.ingest.parsers import parse_file

ROOT = Path(__file__).resolve().parents[2]
CHECK_SETS = Path.home() / ".cache/citewise/check-sets"
DEFAULT_PDFS = (
    "policy/fhs-3.0.pdf",
    "governance/constitution.pdf",
    "workplace/anti-bribery-statement.pdf",
    "workplace/gifts-and-entertainment-policy.pdf",
    "financebench/NETFLIX_2017_10K.pdf",
)
REFERENCE = "citewise_reference_graph"

Extractor = Callable[[list[ChunkText]], DocumentGraph]


def reference_extractor(base: str, into: Path) -> Extractor:
    """`extract` as it was at `base`, importable beside this tree's."""
    package = into / REFERENCE
    listing = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", base, "src/citewise/graph/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for path in listing:
        rel = Path(path).relative_to("src/citewise/graph")
        if rel.suffix != ".py" or (rel.parts[0] != "rules" and rel.name != "extract.py"):
            continue
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{base}:{path}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        target = package / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source.replace("citewise.graph.rules", f"{REFERENCE}.rules"))
    (package / "__init__.py").write_text("")
    sys.path.insert(0, str(into))
    module = importlib.import_module(f"{REFERENCE}.extract")
    return module.extract  # type: ignore[no-any-return]


def corpus(files: Sequence[Path], limit: int) -> list[tuple[str, list[ChunkText]]]:
    count_tokens = HashingEmbedder().count_tokens
    docs: list[tuple[str, list[ChunkText]]] = []
    for path in files[:limit] if limit else files:
        parsed = parse_file(path)
        children = chunk_document(parsed, count_tokens, ChunkingOptions()).children
        chunks = [ChunkText(i + 1, c.text, c.section) for i, c in enumerate(children)]
        docs.append((path.name, chunks))
    return docs


def default_files() -> list[Path]:
    html = sorted(Path("/usr/share/doc/python3.11/html/library").glob("*.html"))
    pdfs = [CHECK_SETS / p for p in DEFAULT_PDFS if (CHECK_SETS / p).exists()]
    return html + pdfs


def timed(extractor: Extractor, docs: list[tuple[str, list[ChunkText]]]) -> float:
    started = time.process_time()
    for _, chunks in docs:
        extractor(chunks)
    return time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--base", default="33388d6", help="the reference commit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--limit", type=int, default=0, help="only the first N files")
    parser.add_argument("--cache", type=Path, help="a pickle of the parsed corpus, made if absent")
    args = parser.parse_args()
    if args.cache and args.cache.exists():
        docs = pickle.loads(args.cache.read_bytes())
    else:
        docs = corpus(args.files or default_files(), args.limit)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(docs))
    chunks = sum(len(c) for _, c in docs)
    print(f"{len(docs)} documents, {chunks} chunks")
    with tempfile.TemporaryDirectory() as tmp:
        reference = reference_extractor(args.base, Path(tmp))
        differing = []
        entities = relations = 0
        for name, doc in docs:
            old, new = reference(doc), extract(doc)
            entities += len(new.entities)
            relations += len(new.relations)
            if old != new or repr(old) != repr(new):
                differing.append(name)
        print(f"graphs: {entities} entities, {relations} relations; differing: {len(differing)}")
        for name in differing:
            print("  DIFFERS:", name)
        old_s: list[float] = []
        new_s: list[float] = []
        for _ in range(args.rounds):
            old_s.append(timed(reference, docs))
            new_s.append(timed(extract, docs))
        print("CPU s, reference:", " ".join(f"{s:.2f}" for s in old_s))
        print("CPU s, this tree:", " ".join(f"{s:.2f}" for s in new_s))
        print(f"best: {min(old_s):.2f} → {min(new_s):.2f} ({min(new_s) / min(old_s):.0%})")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
