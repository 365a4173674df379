"""The knowledge graph on vs off through the real answer flow (`Assistant.ask`), and what it
costs at ingest.

    python benchmarks/relations_flow.py answers --store DIR --work /tmp/x --set SET.jsonl \
        [--half tune|test|all] [--routed-only]
    python benchmarks/relations_flow.py ingest --corpus DIR --work /tmp/y

`answers` copies the store in DIR (a citewise data dir; it is never written), stores every
document's graph (as ingest now does for new documents), then asks each question twice: with
the graph source in the retrievers (on) and without it (off). Per set and half: gold-document
recall@5 and all-gold@5 (every gold document among the answer's first five sources), file@5
(a gold file among them), answered (not the not-found reply), cited_recall (the gold documents
the answer's citations name: what the answer says; a "which documents" answer lists each
document, cited) and must_contain (in the answer); `rows`: per question, the gold documents
each answer cites. With --routed-only, only questions
on the relationship route are asked: on every other question the graph source contributes
nothing, so on and off are the same by construction.

`ingest` ingests the corpus into two fresh data dirs, graph extraction on and off, and
reports seconds, chunks per second and the store's size.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.chat.query_router import asks_relationship
from citewise.evaluation.answers import contains_all
from citewise.evaluation.dataset import load_items
from citewise.ingest.graph import store_graphs
from citewise.retrieve.sources.graph import GraphSource

TOP = 5


def routed(question: str) -> bool:
    """Whether the graph source joins: the relationship route (its document questions too)."""
    return asks_relationship(question)


def has(sources: list[str], gold_file: str) -> bool:
    return any(s == gold_file or s.endswith("/" + gold_file) for s in sources)


def store_bytes(data_dir: Path) -> int:
    db = data_dir / "citewise.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db.stat().st_size


@contextmanager
def graph_off(a: Assistant) -> Iterator[None]:
    """The retrievers without their graph source (keyword, vector and genre sources only)."""
    retrievers = (inside(a).retriever(), inside(a).retriever(candidates=True))
    kept = [list(r.sources) for r in retrievers]
    for r in retrievers:
        r.sources = [s for s in r.sources if not isinstance(s, GraphSource)]
    try:
        yield
    finally:
        for r, sources in zip(retrievers, kept, strict=True):
            r.sources = sources


def answers(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(args.store, work, ignore=shutil.ignore_patterns("*.pid", "*.log"))
    before = store_bytes(work)
    a = Assistant(data_dir=work)
    docs = a.documents()
    chunks = sum(d.chunk_count for d in docs)
    t = time.perf_counter()
    store_graphs(inside(a).store, [d.doc_id for d in docs])
    build_s = time.perf_counter() - t
    items = [i for i in load_items(Path(args.set)) if args.half == "all" or i.half == args.half]
    if args.routed_only:
        items = [i for i in items if routed(i.question)]
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    rows = []
    for item in items:
        gold = sorted({g.file for g in item.gold})
        row: dict[str, Any] = {"id": item.id, "routed": routed(item.question)}
        for name in ("off", "on"):
            if name == "off":
                with graph_off(a):
                    answer = a.ask(item.question, session_id=None)
            else:
                answer = a.ask(item.question, session_id=None)
            top = [h.source for h in answer.sources[:TOP]]
            found = [g for g in gold if has(top, g)]
            s = scores[name]
            if gold:
                s["recall@5"].append(len(found) / len(gold))
                s["all_gold@5"].append(float(len(found) == len(gold)))
                s["file@5"].append(float(bool(found)))
            # the answer itself: not "the documents do not contain …", and the gold documents
            # its citations name
            s["answered"].append(float(answer.answer_kind != "none"))
            cited = [c.source for c in answer.citations]
            if gold:
                s["cited_recall"].append(sum(has(cited, g) for g in gold) / len(gold))
            if item.must_contain:
                s["must"].append(float(contains_all(answer.answer, item.must_contain)))
            row[name] = {
                "top": top, "must": contains_all(answer.answer, item.must_contain),
                "cited": sorted(g for g in gold if has(cited, g)), "kind": answer.answer_kind,
            }  # fmt: skip
        rows.append(row)
    a.close()
    return {
        "set": args.set, "half": args.half, "questions": len(items),
        "routed": sum(1 for r in rows if r["routed"]),
        "graph_build": {
            "documents": len(docs), "chunks": chunks, "seconds": round(build_s, 1),
            "chunks_per_s": round(chunks / build_s, 1) if build_s else None,
            "store_bytes_before": before, "store_bytes_after": store_bytes(work),
        },
        **{name: {k: round(sum(v) / len(v), 3) for k, v in s.items()}
           for name, s in scores.items()},
        "changed": [r for r in rows if r["off"] != r["on"]],
        "rows": [{"id": r["id"], **{n: {"cited": r[n]["cited"], "kind": r[n]["kind"]}
                                  for n in ("off", "on")}} for r in rows],
    }  # fmt: skip


def ingest(args: argparse.Namespace) -> dict[str, Any]:
    import citewise.ingest.graph as graph_ingest

    out: dict[str, Any] = {}
    for name in ("off", "on"):
        data = Path(args.work) / name
        shutil.rmtree(data, ignore_errors=True)
        original = graph_ingest.store_graphs
        if name == "off":
            graph_ingest.store_graphs = lambda store, doc_ids: 0
        try:
            with Assistant(data_dir=data) as a:
                inside(a).embedder()  # the model loads outside the timing
                t = time.perf_counter()
                report = a.ingest([Path(args.corpus)])
                seconds = time.perf_counter() - t
                chunks = sum(d.chunk_count for d in a.documents())
        finally:
            graph_ingest.store_graphs = original
        out[name] = {
            "documents": report.count("ingested"), "chunks": chunks,
            "seconds": round(seconds, 1), "chunks_per_s": round(chunks / seconds, 2),
            "store_bytes": store_bytes(data),
        }  # fmt: skip
    out["throughput_on_vs_off"] = round(out["on"]["chunks_per_s"] / out["off"]["chunks_per_s"], 3)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("answers")
    a.add_argument("--store", required=True)
    a.add_argument("--work", required=True)
    a.add_argument("--set", required=True)
    a.add_argument("--half", default="all", choices=("tune", "test", "all"))
    a.add_argument("--routed-only", action="store_true")
    i = sub.add_parser("ingest")
    i.add_argument("--corpus", required=True)
    i.add_argument("--work", required=True)
    args = p.parse_args()
    report = answers(args) if args.command == "answers" else ingest(args)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
