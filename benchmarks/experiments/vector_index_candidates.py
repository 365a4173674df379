"""The embedded store's vector search at scale: exact numpy partitions against the HNSW index
(usearch, int8), side by side in one run, through the real SQLite store.

    .venv/bin/python benchmarks/vector_index_candidates.py --vectors 1000000 --collections 100 \
        --out benchmarks/results/vector_index.json

One database of N clustered unit vectors (384 dims) in C collections, D documents each, is
bulk-loaded; then each backend runs in its own process (so its peak RSS is its own):
- build: the first search of every collection (exact: the partition read; HNSW: the graph
  built from the stored vectors and saved beside the database);
- query: p50/p99 of `vector_search` (k=10) on random collections with ~300 distinct queries
  in all, recall@10 (mean, worst) against exact search over the same collection;
- reopen (HNSW): a new process opening the saved index files (memory-mapped) and searching;
- delete: one document deleted, then the next search (exact: the partition re-read; HNSW:
  its ids removed from the graph, no rebuild);
- memory: VmHWM / VmRSS / RssAnon of the process, the index files' size on disk;
- kill -9: a child inserting documents (and searching, so the index is saved often) is killed
  at random points; a fresh process then checks that the index holds exactly the store's
  vectors and that recall@10 holds.
The machine's `uptime` is recorded beside the figures. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from citewise.evaluation.bench import percentiles, synthetic_vectors
from citewise.store.sqlite.shared import index_folder, shared_state
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import SearchFilter

DIM = 384
K = 10
SEARCHES = 300
# distinct queries, ~SEARCHES over all collections: a few queries measure a few searches'
# luck, not the index's recall
QUERIES_TOTAL = SEARCHES


def _status() -> dict[str, float]:
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmHWM", "VmRSS", "RssAnon", "RssFile"):
            fields[name + "_mb"] = round(int(value.split()[0]) / 1024, 1)
    return fields


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


@functools.lru_cache(maxsize=2)  # a one-collection run asks for the same 1M vectors each query
def _collection(cid: int, per: int, queries: int) -> tuple[np.ndarray, np.ndarray]:
    """The stored vectors of collection `cid` and its queries (the same clusters)."""
    both = synthetic_vectors(per + queries, dim=DIM, seed=cid)
    return both[:per], both[per:]


def _queries(collections: int) -> int:
    return max(5, QUERIES_TOTAL // collections)


@functools.lru_cache(maxsize=2)
def _stored_rows(path: Path, cid: int, per: int) -> np.ndarray:
    """Which rows of collection `cid` the store still holds (an earlier run deleted some)."""
    conn = sqlite3.connect(path)
    ids = [
        r[0] for r in conn.execute("SELECT chunk_id FROM vectors WHERE collection_id = ?", (cid,))
    ]
    conn.close()
    alive = np.zeros(per, dtype=bool)
    alive[np.asarray(ids, dtype=np.int64) - (cid - 1) * per - 1] = True
    return alive


def build_db(path: Path, vectors: int, collections: int, docs: int) -> dict[str, Any]:
    SQLiteStore(path).close()  # the schema
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")
    per = vectors // collections
    started = time.perf_counter()
    chunk_id = 0
    for c in range(collections):
        matrix, _ = _collection(c + 1, per, _queries(collections))
        conn.execute("BEGIN")
        conn.execute(
            "INSERT INTO collections(id, name, created_at) VALUES (?,?,0)", (c + 1, f"c{c + 1}")
        )
        for d, rows in enumerate(np.array_split(np.arange(per), docs)):
            doc = c * docs + d + 1
            conn.execute(
                "INSERT INTO documents(id, collection_id, source, title, format, content_hash,"
                " mtime, size, status, chunk_count, ingested_at) VALUES (?,?,?,?,'text','h',0,0,"
                "'ready',?,0)",
                (doc, c + 1, f"d{doc}.txt", f"d{doc}", len(rows)),
            )
            conn.execute(
                "INSERT INTO parents(id, doc_id, ordinal, text, section) VALUES (?,?,0,'','')",
                (doc, doc),
            )
            chunk_rows, vector_rows = [], []
            for r in rows:
                chunk_id += 1
                digest = hashlib.sha1(str(chunk_id).encode()).hexdigest()
                chunk_rows.append((chunk_id, doc, doc, c + 1, int(r), f"c{chunk_id}", digest))
                vector_rows.append((chunk_id, c + 1, matrix[r].tobytes()))
            conn.executemany(
                "INSERT INTO chunks(id, doc_id, parent_id, collection_id, ordinal, text,"
                " embed_text, section, content_hash, has_vector) VALUES (?,?,?,?,?,?,'','',?,1)",
                chunk_rows,
            )
            conn.executemany(
                "INSERT INTO vectors(chunk_id, collection_id, vec) VALUES (?,?,?)", vector_rows
            )
        conn.execute("COMMIT")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'generation'")
    conn.commit()
    conn.close()
    return {
        "load_s": round(time.perf_counter() - started, 1),
        "db_mb": round(path.stat().st_size / 2**20),
    }


def run_backend(
    path: Path, exact_below: int, collections: int, per: int, seed: int
) -> dict[str, Any]:
    store = SQLiteStore(path)
    shared_state(path).ann.exact_below = exact_below
    started = time.perf_counter()
    first: list[float] = []
    for c in range(collections):
        t = time.perf_counter()
        store.vector_search(
            np.ones(DIM, dtype=np.float32) / DIM**0.5, SearchFilter(collection=f"c{c + 1}"), K
        )
        first.append((time.perf_counter() - t) * 1000)
    build_s = time.perf_counter() - started
    memory_after_build = _status()
    rng = random.Random(seed)
    times: list[float] = []
    recalls: list[float] = []
    for _ in range(SEARCHES):
        c = rng.randrange(min(2, collections - 1), collections) + 1  # c1 loses a document
        matrix, queries = _collection(c, per, _queries(collections))
        q = queries[rng.randrange(queries.shape[0])]
        t = time.perf_counter()
        hits = store.vector_search(q, SearchFilter(collection=f"c{c}"), K)
        times.append((time.perf_counter() - t) * 1000)
        first_id = (c - 1) * per + 1
        scores = np.where(_stored_rows(path, c, per), matrix @ q, -np.inf)
        truth = set((np.argpartition(-scores, K)[:K] + first_id).tolist())
        recalls.append(len(truth & {h.chunk_id for h in hits}) / K)
    folder = index_folder(path)
    files_mb = (
        sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20
        if folder.exists()
        else 0.0
    )
    doc = store.list_documents("c1")[0]
    t = time.perf_counter()
    store.delete_document(doc.doc_id)
    delete_write_ms = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    store.vector_search(queries[0], SearchFilter(collection="c1"), K)
    search_after_delete_ms = (time.perf_counter() - t) * 1000
    store.close()
    return {
        "exact_below": exact_below,
        "build_s": round(build_s, 1),
        "first_search_per_collection": percentiles(first),
        "query": percentiles(times),
        "recall@10": round(float(np.mean(recalls)), 4),
        "recall@10_min": min(recalls),
        "searches_recall_below_0.5": sum(r < 0.5 for r in recalls),
        "distinct_queries": _queries(collections) * collections,
        "memory_after_build": memory_after_build,
        "memory_end": _status(),
        "index_files_mb": round(files_mb, 1),
        "delete": {
            "chunks": doc.chunk_count,
            "delete_write_ms": round(delete_write_ms, 1),
            "next_search_ms": round(search_after_delete_ms, 1),
        },
    }


_WRITER = """
import sys
from pathlib import Path
import numpy as np
from citewise.store.sqlite.shared import shared_state
from citewise.store.sqlite.store import SQLiteStore
from citewise.testing.store_contract import new_document
from citewise.types import SearchFilter
path = Path(sys.argv[1])
store = SQLiteStore(path)
shared_state(path).ann.exact_below = 0
shared_state(path).ann.save_after = 1
rng = np.random.default_rng(int(sys.argv[2]))
for i in range(10**6):
    doc = new_document(f"k{sys.argv[2]}-{i}.md", f"kill{i} alpha " * 50, collection="c2")
    store.add_document(doc)
    ids = [cid for cid, _ in store.chunks_missing_vectors(1000)]
    vecs = rng.normal(size=(len(ids), 384)).astype(np.float32)
    store.put_vectors(ids, vecs / np.linalg.norm(vecs, axis=1, keepdims=True), "bench")
    store.finalize()
    store.vector_search(vecs[0], SearchFilter(collection="c2"), 10)
    print(i, flush=True)
"""


def verify(path: Path) -> dict[str, Any]:
    """A fresh process's view after a kill: the index holds exactly the store's rows."""
    from citewise.store.sqlite.ann import active_rows

    store = SQLiteStore(path)
    shared_state(path).ann.exact_below = 0
    started = time.perf_counter()
    q = synthetic_vectors(1, dim=DIM, seed=99)[0]
    hits = store.vector_search(q, SearchFilter(collection="c2"), K)
    open_ms = (time.perf_counter() - started) * 1000
    conn = sqlite3.connect(path)
    ids, _ = active_rows(conn, 2)
    index = shared_state(path).ann.loaded(2)
    assert index is not None
    blobs = conn.execute(
        "SELECT chunk_id, vec FROM vectors WHERE collection_id = 2 ORDER BY chunk_id"
    ).fetchall()
    matrix = np.frombuffer(b"".join(b for _, b in blobs), dtype=np.float32).reshape(len(blobs), -1)
    truth = {blobs[i][0] for i in np.argsort(-(matrix @ q))[:K]}
    graph_keys = np.sort(np.asarray(index.graph.keys, dtype=np.int64))
    return {
        "index_rows_equal_store_rows": bool(np.array_equal(index.ids, ids)),
        "graph_keys_equal_store_rows": bool(np.array_equal(graph_keys, ids)),
        "recall@10": len(truth & {h.chunk_id for h in hits}) / K,
        "open_and_sync_ms": round(open_ms, 1),
    }


def kill_test(path: Path, rounds: int) -> list[dict[str, Any]]:
    out = []
    for r in range(rounds):
        child = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path), str(r)], stdout=subprocess.PIPE
        )
        assert child.stdout is not None
        child.stdout.readline()
        wait = random.Random(r).uniform(0.5, 8.0)
        time.sleep(wait)
        child.send_signal(signal.SIGKILL)
        child.wait()
        res = subprocess.run(
            [sys.executable, __file__, "--verify", str(path)], capture_output=True, text=True
        )
        result = json.loads(res.stdout) if res.returncode == 0 else {"error": res.stderr[-2000:]}
        out.append({"killed_after_s": round(wait, 2), **result})
        print(json.dumps(out[-1]), file=sys.stderr, flush=True)
    return out


def _child(args: list[str]) -> dict[str, Any]:
    res = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True)
    if res.returncode != 0:
        return {"error": res.stderr[-3000:]}
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vectors", type=int, default=1_000_000)
    ap.add_argument("--collections", type=int, default=100)
    ap.add_argument("--docs", type=int, default=10, help="documents per collection")
    ap.add_argument("--kill-rounds", type=int, default=5)
    ap.add_argument("--dir", type=Path, help="where the database goes (default: a temp dir)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--backend", nargs=2, metavar=("DB", "EXACT_BELOW"))
    ap.add_argument("--verify", type=Path)
    args = ap.parse_args()
    per = args.vectors // args.collections
    if args.backend:
        print(
            json.dumps(
                run_backend(Path(args.backend[0]), int(args.backend[1]), args.collections, per, 1)
            )
        )
        return
    if args.verify:
        print(json.dumps(verify(args.verify)))
        return
    work = Path(tempfile.mkdtemp(prefix="vector-bench-", dir=args.dir))
    db = work / "store.db"
    report: dict[str, Any] = {"vectors": args.vectors, "collections": args.collections, "dim": DIM,
                              "uptime_start": _uptime()}  # fmt: skip
    report["database"] = build_db(db, args.vectors, args.collections, args.docs)
    print(json.dumps(report), file=sys.stderr, flush=True)
    common = ["--vectors", str(args.vectors), "--collections", str(args.collections)]
    exact_db = work / "exact.db"
    shutil.copy(db, exact_db)
    report["exact"] = _child([*common, "--backend", str(exact_db), str(10**12)])
    report["uptime_after_exact"] = _uptime()
    print(json.dumps(report["exact"]), file=sys.stderr, flush=True)
    report["hnsw"] = _child([*common, "--backend", str(db), "0"])
    report["uptime_after_hnsw"] = _uptime()
    print(json.dumps(report["hnsw"]), file=sys.stderr, flush=True)
    report["hnsw_reopened"] = _child([*common, "--backend", str(db), "0"])
    print(json.dumps(report["hnsw_reopened"]), file=sys.stderr, flush=True)
    report["kill_9_during_insert"] = kill_test(db, args.kill_rounds)
    report["uptime_end"] = _uptime()
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
