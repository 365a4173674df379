"""Relationship check sets with the knowledge graph off and on, before it is wired into the
retriever: the corpus is ingested with citewise (hybrid search as shipped), the graph is
built from the stored chunks beside it (rule extraction, SQLite), and each question's top 5
is hybrid alone or hybrid fused (RRF, k=60) with the graph CandidateSource.

    python benchmarks/relations_graph.py --set benchmarks/check_sets/relations_pg.jsonl \
        --corpus ~/.cache/citewise/check-sets/relations_pg --data-dir /tmp/rel-pg [--half tune]
    python benchmarks/relations_graph.py ... --sample 50 --seed 7   # entities to label
    python benchmarks/relations_graph.py --corpus … --data-dir … --half all --expand \
        --graph-weight 0.5 --set benchmarks/check_sets/graph_questions_papers.jsonl

Reports, per half: gold-document recall@5 and all-gold@5 (every gold document in the top 5)
off and on; the graph's size, build time and extraction throughput; with --labels FILE, the
entity precision of each labelled sample ({"doc", "name", "ok"} lines) as drawn, and of the
part of it this extractor still makes cards for.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.graph.ego import common_keys, worth_a_card
from citewise.graph.extract import extract
from citewise.graph.model import WEAK_RELATION, ChunkText, Entity, entity_key
from citewise.graph.sqlite import SQLiteGraphStore, apply_schema
from citewise.retrieve.sources.graph import GraphSource

RRF_K = 60
TOP = 5


def build_graph(a: Assistant, path: Path) -> tuple[SQLiteGraphStore, dict[str, Any]]:
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("CREATE TABLE documents (id INTEGER PRIMARY KEY)")
    apply_schema(conn)
    gs = SQLiteGraphStore.over(conn)
    extract_s = store_s = 0.0
    chars = chunks = 0
    for doc in a.documents():
        conn.execute("INSERT INTO documents (id) VALUES (?)", (doc.doc_id,))
        recs = inside(a).store.document_chunks(doc.doc_id)
        t = time.perf_counter()
        graph = extract([ChunkText(r.chunk_id, r.text, r.section) for r in recs])
        extract_s += time.perf_counter() - t
        t = time.perf_counter()
        gs.replace_document(doc.doc_id, a.collection, doc.title, doc.source, graph)
        store_s += time.perf_counter() - t
        chars += sum(len(r.text) for r in recs)
        chunks += len(recs)
    counts = {
        t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        for t in ("graph_entities", "graph_relations", "graph_doc_links")
    }
    counts.update(typed_share(gs, a.collection))
    stats = {
        "documents": len(a.documents()), "chunks": chunks, "extract_s": round(extract_s, 2),
        "store_s": round(store_s, 2), "chunks_per_s": round(chunks / max(extract_s, 1e-9), 1),
        "graph_db_bytes": path.stat().st_size, **counts,
    }  # fmt: skip
    return gs, stats


def typed_share(gs: SQLiteGraphStore, collection: str) -> dict[str, Any]:
    """The collection's distinct edges (as the export holds them): how many are typed."""
    edges = gs.snapshot(collection).relations
    typed = [r for r in edges if r.kind != WEAK_RELATION]
    kinds = sorted({r.kind for r in typed})
    return {
        "edges": len(edges), "typed_edges": len(typed),
        "typed_share": round(len(typed) / max(len(edges), 1), 3),
        "typed_by_kind": {k: sum(r.kind == k for r in typed) for k in kinds},
    }  # fmt: skip


def top_sources(
    hybrid: list[tuple[int, str]], graph: list[int], src: dict[int, str], weight: float = 1.0
) -> list[str]:
    """Sources of the top-5 chunks of hybrid alone (graph empty) or fused with the graph."""
    score: dict[int, float] = defaultdict(float)
    for rank, (chunk, _) in enumerate(hybrid, start=1):
        score[chunk] += 1.0 / (RRF_K + rank)
    for rank, chunk in enumerate(graph, start=1):
        score[chunk] += weight / (RRF_K + rank)
    ranked = sorted(score, key=lambda c: -score[c])[:TOP]
    return [src[c] for c in ranked if c in src]


def has(sources: list[str], gold_file: str) -> bool:
    return any(s == gold_file or s.endswith("/" + gold_file) for s in sources)


def run(args: argparse.Namespace) -> dict[str, Any]:
    a = Assistant(data_dir=args.data_dir)
    if not a.documents():
        a.ingest([args.corpus])
    gs, stats = build_graph(a, Path(args.data_dir) / "graph.db")
    source = GraphSource(gs, per_document=args.per_document)
    lines = Path(args.set).read_text().splitlines() if args.set else []
    items = [json.loads(line) for line in lines if line.strip()]
    by_half: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    by_style: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    rows = []
    for item in items:
        if args.half != "all" and item.get("split") != args.half:
            continue
        q = item["question"]
        hits = a.search(q, k=20).hits
        src = {h.chunk_id: h.source for h in hits}
        known = {h.chunk_id for h in hits} if args.expand else None
        graph_chunks = source.chunk_ids(q, a.collection, known=known)[: args.graph_k]
        missing = [c for c in graph_chunks if c not in src]
        for rec in inside(a).store.get_chunks(missing):
            src[rec.chunk_id] = rec.source
        hybrid = [(h.chunk_id, h.source) for h in hits]
        gold = sorted({g["file"] for g in item["gold"]})
        found_by: dict[str, int] = {}
        for name, top in (
            ("off", top_sources(hybrid, [], src)),
            ("on", top_sources(hybrid, graph_chunks, src, args.graph_weight)),
        ):
            found = [g for g in gold if has(top, g)]
            found_by[name] = len(found)
            by_half[name]["recall@5"].append(len(found) / len(gold))
            by_half[name]["all_gold@5"].append(float(len(found) == len(gold)))
            by_style[f"{item.get('style', '')}:{name}"]["all_gold@5"].append(
                float(len(found) == len(gold))
            )
        rows.append(
            {"id": item["id"], "graph_chunks": len(graph_chunks), "gold": len(gold), **found_by}
        )
    report = {
        "set": args.set, "half": args.half, "questions": len(rows), "graph": stats,
        "graph_k": args.graph_k, "expand": args.expand,
        "per_document": args.per_document, "graph_weight": args.graph_weight,
        "off": {k: round(sum(v) / len(v), 3) for k, v in by_half["off"].items()},
        "on": {k: round(sum(v) / len(v), 3) for k, v in by_half["on"].items()},
        "questions_with_graph_candidates": sum(1 for r in rows if r["graph_chunks"]),
        "gold_found_off_on": {
            r["id"]: f"{r['off']}/{r['gold']} -> {r['on']}/{r['gold']}" for r in rows
        },
        "all_gold@5_by_style": {
            k: f"{sum(v['all_gold@5']):.0f}/{len(v['all_gold@5'])}" for k, v in by_style.items()
        },
    }  # fmt: skip
    if args.sample:
        report["sample"] = sample_entities(gs, a, args.sample, args.seed)
    for path in args.labels:
        labels = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
        report.setdefault("labels", {})[path] = {
            "precision": round(sum(x["ok"] for x in labels) / len(labels), 3),
            "labelled": len(labels),
            "against_this_extractor": still_cards(gs, a, labels),
        }
    return report


def sample_entities(gs: SQLiteGraphStore, a: Assistant, n: int, seed: int) -> list[dict[str, str]]:
    """`n` random (document, entity) mentions with the start of a passage naming them."""
    docs = {d.source.rsplit("/", 1)[-1]: d.doc_id for d in a.documents()}
    pairs = card_pairs(gs, a)
    rng = random.Random(seed)
    out = []
    for doc, e in rng.sample(pairs, min(n, len(pairs))):
        recs = [r for r in inside(a).store.get_chunks(list(e.chunk_ids)) if r.doc_id == docs[doc]]
        text = recs[0].text if recs else ""
        at = text.lower().find(e.name.lower())
        context = text[max(0, at - 80) : at + len(e.name) + 80] if at >= 0 else text[:160]
        out.append({"doc": doc, "name": e.name, "kind": e.kind, "context": context})
    return out


def card_pairs(gs: SQLiteGraphStore, a: Assistant) -> list[tuple[str, Entity]]:
    """Every (document file, entity) a card is made for: not section numbers, not names the
    document-frequency stop-list hides."""
    snap = gs.snapshot(a.collection)
    docs = {d.doc_id: d.source.rsplit("/", 1)[-1] for d in snap.documents}
    common = common_keys(gs, a.collection, [e.key for e in snap.entities])
    worthy = [e for e in snap.entities if worth_a_card(e) and e.key not in common]
    return [(docs[d], e) for e in worthy for d in e.doc_ids]


def still_cards(gs: SQLiteGraphStore, a: Assistant, labels: list[dict[str, Any]]) -> dict[str, Any]:
    """A labelled sample drawn from an earlier extractor, against this one: how many of its
    true and false entities are still cards of their document, and the precision of those."""
    kept = {(doc, entity_key(e.name)) for doc, e in card_pairs(gs, a)}
    kept |= {(doc, entity_key(alias)) for doc, e in card_pairs(gs, a) for alias in e.aliases}
    left = [x for x in labels if (x["doc"], entity_key(x["name"])) in kept]
    return {
        "true_kept": f"{sum(x['ok'] for x in left)}/{sum(x['ok'] for x in labels)}",
        "false_kept": f"{sum(not x['ok'] for x in left)}/{sum(not x['ok'] for x in labels)}",
        "precision_of_kept": round(sum(x["ok"] for x in left) / max(len(left), 1), 3),
        "false_still_kept": [x["name"] for x in left if not x["ok"]],
        "true_lost": [x["name"] for x in labels if x["ok"] and x not in left],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--set", default="", help="questions (none: the graph's figures only)")
    p.add_argument("--corpus", required=True)
    p.add_argument("--data-dir", required=True)
    p.add_argument("--half", default="tune", choices=("tune", "test", "all"))
    p.add_argument("--sample", type=int, default=0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--labels", action="append", default=[], help="labelled samples (repeat)")
    p.add_argument("--expand", action="store_true", help="graph sees hybrid's hits")
    p.add_argument("--per-document", type=int, default=1)
    p.add_argument("--graph-k", type=int, default=10, help="graph candidates fused")
    p.add_argument("--graph-weight", type=float, default=1.0, help="its RRF weight")
    print(json.dumps(run(p.parse_args()), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
