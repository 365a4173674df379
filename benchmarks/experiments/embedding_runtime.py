"""Which runtime should embed with all-MiniLM-L6-v2? Speed and fidelity on this machine.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/experiments/embedding_runtime.py [--n 512]
        [--repeat 2] [--threads 2] [--only NAME ...]
        [--json benchmarks/results/embedding_runtime.json]

Texts: paragraphs of /usr/share/doc/python3.11/html glued into chunks of 150–250 MiniLM tokens
(as the chunker makes them), plus 50 short questions. Reference: sentence-transformers on torch
fp32. For each candidate: chunks/s and tokens/s (best of --repeat passes over all chunks, real
tokens without specials), the median latency of one query, cosine to the reference (mean/min
over chunks and queries), top-10 overlap (each query's 10 nearest chunks vs the reference's),
and the runtime's install footprint.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from html.parser import HTMLParser
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
DOCS = Path("/usr/share/doc/python3.11/html")
DEV_CORPUS_TOKENS = 2_830_000

# fmt: off
QUERIES = [
    "how do I read a file line by line", "sort a dictionary by value", "what is a decorator",
    "run a subprocess and capture its output", "parse command line arguments",
    "difference between list and tuple", "format a date as a string", "open a sqlite database",
    "create a virtual environment", "handle exceptions with try except",
    "what does the with statement do", "iterate over two lists at the same time",
    "read a json file", "write a csv file", "regular expression to match an email",
    "how to use asyncio gather", "thread pool executor example", "make an http request",
    "get environment variables", "list files in a directory recursively", "what is a generator",
    "f-string formatting of floats", "how to define a dataclass", "type hints for a function",
    "copy a list deeply", "measure execution time of code", "log messages to a file",
    "unit testing with mocks", "what is the global interpreter lock", "how to pickle an object",
    "compare two strings ignoring case", "remove duplicates from a list",
    "default values in a dictionary", "how does garbage collection work",
    "create a temporary file", "compress data with gzip", "hash a password with a salt",
    "generate random numbers", "what is a context manager", "how do imports find modules",
    "convert between bytes and str", "round a number to two decimals", "what is a metaclass",
    "use enumerate in a for loop", "read a config file", "send an email with smtplib",
    "schedule a function to run later", "what is a named tuple", "profile a slow program",
    "walrus operator assignment expression",
]
# fmt: on
Embed = Callable[[list[str]], np.ndarray]


# -- candidates ---------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    build: Callable[[], tuple[Embed, Callable[[str], np.ndarray]]]
    footprint_mb: int
    note: str = ""


def _site_mb(*packages: str) -> int:
    import importlib.util

    total = 0
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec and spec.submodule_search_locations:
            for root in spec.submodule_search_locations:
                total += sum(f.stat().st_size for f in Path(root).rglob("*") if f.is_file())
    return total // 2**20


def tokenizer_counter() -> Callable[[str], int]:
    from tokenizers import Tokenizer

    from citewise.embed.minilm.export import _bundled_model_dir

    tok = Tokenizer.from_file(str(_bundled_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


_ST: dict[int, object] = {}


def _st_model(threads: int) -> object:
    import torch
    from sentence_transformers import SentenceTransformer

    from citewise.embed.minilm.export import _bundled_model_dir

    torch.set_num_threads(threads)
    if threads not in _ST:
        _ST[threads] = SentenceTransformer(str(_bundled_model_dir()), device="cpu")
    return _ST[threads]


def reference(chunks: list[str], queries: list[str], threads: int) -> tuple[np.ndarray, ...]:
    model = _st_model(threads)
    enc = model.encode  # type: ignore[attr-defined]
    return (
        enc(chunks, batch_size=32, normalize_embeddings=True),
        enc(queries, batch_size=32, normalize_embeddings=True),
    )


def _st_case(threads: int, bf16: bool) -> tuple[Embed, Callable[[str], np.ndarray]]:
    import contextlib

    import torch

    model = _st_model(threads)

    def embed(texts: list[str]) -> np.ndarray:
        ctx = torch.autocast("cpu", dtype=torch.bfloat16) if bf16 else contextlib.nullcontext()
        with torch.inference_mode(), ctx:
            return np.asarray(
                model.encode(
                    texts,
                    batch_size=32,  # type: ignore[attr-defined]
                    normalize_embeddings=True,
                ),
                dtype=np.float32,
            )

    return embed, lambda q: embed([q])[0]


def _ort_case(
    path: Path,
    threads: int,
    batch: int = 32,
    sort: bool = True,
    sessions: int = 1,
    spin: bool = False,
) -> tuple[Embed, Callable[[str], np.ndarray]]:
    """MiniLMEmbedder on `path` with `sessions` sessions sharing `threads` threads."""
    from citewise.embed.minilm import runtime as local

    emb = local.MiniLMEmbedder(onnx_path=path, threads=threads, batch_size=batch, sessions=sessions)
    if spin:  # swap in sessions whose idle threads spin (ORT's default)
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        while not emb._runtime._idle.empty():
            emb._runtime._idle.get()
        emb._runtime._idle.put(
            ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        )
    if not sort:  # same sessions and pool, batches in input order
        rt = emb._runtime

        def embed(texts: list[str]) -> np.ndarray:
            parts = [texts[i : i + batch] for i in range(0, len(texts), batch)]
            return np.concatenate(list(emb._pool.map(rt.embed, parts)))

        return embed, emb.embed_query
    return emb.embed_documents, emb.embed_query


def candidates(tmp: Path, threads: int) -> list[Case]:
    from citewise.embed.minilm import graph as mg
    from citewise.embed.minilm.export import _bundled_model_dir

    fused = mg.build_fp32_graph(_bundled_model_dir(), tmp)
    raw = tmp / "raw.onnx"
    q = {}
    from citewise.embed.minilm.recipe import ATTENTION, FFN_OUTPUTS, RECIPES, Int8Recipe

    def dynamic(tag: str, reduce_range: bool, fp32_nodes: tuple[str, ...] = ()) -> Int8Recipe:
        return Int8Recipe(tag, False, reduce_range, fp32_nodes, 0.0)

    for tag, recipe, per_channel in (
        ("pt", dynamic("pt", False), False),
        ("pc", dynamic("pc", False), True),
        ("pc-rr", dynamic("pc-rr", True), True),
        ("pc-ffn32", dynamic("pc-ffn32", False, FFN_OUTPUTS), True),
        ("pc-rr-ffn32", RECIPES["portable"], True),
        ("per-token-qkv32", RECIPES["vnni"], True),
        ("per-token", Int8Recipe("per-token", True, False, (), 0.0), True),
    ):
        assert tag != "per-token-qkv32" or recipe.fp32_nodes == ATTENTION
        q[tag] = mg.quantize(fused, tmp / f"int8-{tag}.onnx", recipe, per_channel=per_channel)
    weights = sum(f.stat().st_size for f in _bundled_model_dir().rglob("*")) // 2**20
    torch_mb = weights + _site_mb(
        "torch",
        "sentence_transformers",
        "transformers",
        "tokenizers",
        "safetensors",
        "huggingface_hub",
    )
    ort_mb = _site_mb("onnxruntime", "tokenizers")
    int8_mb = ort_mb + q["pc-rr-ffn32"].stat().st_size // 2**20
    fp32_mb = ort_mb + fused.stat().st_size // 2**20
    t = threads
    d = q["pc-rr-ffn32"]
    return [
        Case("st-torch-fp32 (reference)", lambda: _st_case(t, False), torch_mb),
        Case(
            "st-torch-bf16-autocast",
            lambda: _st_case(t, True),
            torch_mb,
            "AMX on this Xeon; without AMX bf16 is emulated and slower",
        ),
        Case("ort-fp32 plain export", lambda: _ort_case(raw, t), fp32_mb),
        Case("ort-fp32 fused", lambda: _ort_case(fused, t), fp32_mb),
        Case("ort-fp32 fused, 2 sessions", lambda: _ort_case(fused, t, sessions=t), fp32_mb),
        Case("ort-int8 per-tensor", lambda: _ort_case(q["pt"], t), int8_mb),
        Case("ort-int8 per-channel", lambda: _ort_case(q["pc"], t), int8_mb),
        Case("ort-int8 pc 7-bit", lambda: _ort_case(q["pc-rr"], t), int8_mb),
        Case(
            "  same, 2 sessions x 1 thread", lambda: _ort_case(q["pc-rr"], t, sessions=t), int8_mb
        ),
        Case("ort-int8 pc ffn-out fp32", lambda: _ort_case(q["pc-ffn32"], t), int8_mb),
        Case("ort-int8 pc 7-bit ffn-out fp32", lambda: _ort_case(d, t), int8_mb),
        Case(
            "  same, 2 sessions x 1 thread *",
            lambda: _ort_case(d, t, sessions=t),
            int8_mb,
            "* the default (minilm) on CPUs without VNNI",
        ),
        Case("  *, unsorted batches", lambda: _ort_case(d, t, sessions=t, sort=False), int8_mb),
        Case("  *, batch 16", lambda: _ort_case(d, t, sessions=t, batch=16), int8_mb),
        Case("  *, batch 64", lambda: _ort_case(d, t, sessions=t, batch=64), int8_mb),
        Case("  1 session, spinning threads", lambda: _ort_case(d, t, spin=True), int8_mb),
        Case("  1 session, 1 thread", lambda: _ort_case(d, 1), int8_mb),
        Case(
            "ort-int8 per-token, qkv fp32, 2 sessions x 1 thread",
            lambda: _ort_case(q["per-token-qkv32"], t, sessions=t),
            int8_mb,
            "the default (minilm) on CPUs with VNNI",
        ),
        Case("ort-int8 per-token", lambda: _ort_case(q["per-token"], t, sessions=t), int8_mb),
    ]


class _Paragraphs(HTMLParser):
    TAGS = frozenset({"p", "li", "dd", "pre", "h1", "h2", "h3"})

    def __init__(self) -> None:
        super().__init__()
        self.paragraphs: list[str] = []
        self._buf: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in self.TAGS:
            self._buf = []

    def handle_endtag(self, tag: str) -> None:
        if tag in self.TAGS and self._buf is not None:
            text = re.sub(r"\s+", " ", "".join(self._buf)).strip()
            if len(text) > 30:
                self.paragraphs.append(text)
            self._buf = None

    def handle_data(self, data: str) -> None:
        if self._buf is not None:
            self._buf.append(data)


def make_chunks(n: int, count: Callable[[str], int], seed: int = 0) -> list[str]:
    """`n` chunks of 150–250 tokens from randomly ordered doc pages."""
    files = sorted(DOCS.rglob("*.html"))
    if not files:
        sys.exit(f"no HTML under {DOCS}: apt-get install python3.11-doc")
    rng = random.Random(seed)
    rng.shuffle(files)
    chunks: list[str] = []
    for path in files:
        parser = _Paragraphs()
        parser.feed(path.read_text(errors="replace"))
        current: list[str] = []
        tokens, target = 0, rng.randint(150, 250)
        for para in parser.paragraphs:
            k = count(para)
            if tokens + k > 250:
                if tokens >= 150:
                    chunks.append(" ".join(current))
                current, tokens, target = [], 0, rng.randint(150, 250)
                if k > 250:
                    continue
            current.append(para)
            tokens += k
            if tokens >= target:
                chunks.append(" ".join(current))
                current, tokens, target = [], 0, rng.randint(150, 250)
        if len(chunks) >= n:
            break
    return chunks[:n]


@dataclass
class Row:
    name: str
    chunks_per_s: float
    tokens_per_s: float
    query_ms: float
    cos_mean: float
    cos_min: float
    query_cos_min: float
    top10: float
    dev_corpus_min: float
    footprint_mb: int
    note: str


def top10_overlap(
    docs: np.ndarray, queries: np.ndarray, ref_docs: np.ndarray, ref_queries: np.ndarray
) -> float:
    got = np.argsort(-(queries @ docs.T), axis=1)[:, :10]
    want = np.argsort(-(ref_queries @ ref_docs.T), axis=1)[:, :10]
    return float(np.mean([len(set(g) & set(w)) / 10 for g, w in zip(got, want, strict=True)]))


def time_rounds(built: list[tuple[Case, Embed]], chunks: list[str], repeat: int) -> list[float]:
    """Best seconds per candidate; rounds interleave the candidates so that load from other
    processes on the machine hits them all alike."""
    for _, embed in built:
        embed(chunks[:16])  # warm up
    best = [float("inf")] * len(built)
    for rnd in range(repeat):
        for k, (case, embed) in enumerate(built):
            started = time.perf_counter()
            embed(chunks)
            best[k] = min(best[k], time.perf_counter() - started)
            print(
                f"  round {rnd + 1}: {case.name}: {len(chunks) / best[k]:.1f} chunks/s "
                f"(load {os.getloadavg()[0]:.1f})",
                file=sys.stderr,
                flush=True,
            )
    return best


def fidelity(
    case: Case,
    embed: Embed,
    query: Callable[[str], np.ndarray],
    chunks: list[str],
    tokens: int,
    seconds: float,
    ref: tuple[np.ndarray, np.ndarray],
) -> Row:
    samples, queries = [], []
    for q in QUERIES:
        started = time.perf_counter()
        queries.append(query(q))
        samples.append((time.perf_counter() - started) * 1000)
    qv = np.stack(queries).astype(np.float32)
    docs = embed(chunks).astype(np.float32)
    cos, qcos = np.sum(docs * ref[0], axis=1), np.sum(qv * ref[1], axis=1)
    rate = tokens / seconds
    return Row(
        case.name,
        len(chunks) / seconds,
        rate,
        statistics.median(samples),
        float(min(cos.mean(), 1.0)),
        float(min(cos.min(), 1.0)),
        float(min(qcos.min(), 1.0)),
        top10_overlap(docs, qv, *ref),
        DEV_CORPUS_TOKENS / rate / 60,
        case.footprint_mb,
        case.note,
    )


def print_table(rows: list[Row]) -> None:
    head = (
        f"{'candidate':34} {'chunks/s':>8} {'tok/s':>7} {'query ms':>8} {'cos mean':>8} "
        f"{'cos min':>7} {'q cos min':>9} {'top10':>5} {'dev min':>7} {'MB':>5}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r.name:34} {r.chunks_per_s:8.1f} {r.tokens_per_s:7.0f} {r.query_ms:8.1f} "
            f"{r.cos_mean:8.4f} {r.cos_min:7.4f} {r.query_cos_min:9.4f} {r.top10:5.3f} "
            f"{r.dev_corpus_min:7.1f} {r.footprint_mb:5d}"
        )
    for r in rows:
        if r.note:
            print(f"  {r.name}: {r.note}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None, help="candidate names to run")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    count = tokenizer_counter()
    chunks = make_chunks(args.n, count)
    tokens = sum(count(c) for c in chunks)
    lengths = [count(c) for c in chunks]
    print(
        f"{len(chunks)} chunks, {tokens} tokens (min {min(lengths)}, mean "
        f"{tokens / len(chunks):.0f}, max {max(lengths)}); {len(QUERIES)} queries; "
        f"{args.threads} threads; load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    ref = reference(chunks, QUERIES, args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        cases = [
            c for c in candidates(Path(tmp), args.threads) if not args.only or c.name in args.only
        ]
        built = [(c, *c.build()) for c in cases]
        seconds = time_rounds([(c, e) for c, e, _ in built], chunks, args.repeat)
        rows = [
            fidelity(c, e, q, chunks, tokens, t, ref)
            for (c, e, q), t in zip(built, seconds, strict=True)
        ]
    print_table(rows)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))


if __name__ == "__main__":
    main()
