"""The default embedder: the bundled all-MiniLM-L6-v2 on ONNX Runtime, int8.

Why (benchmarks/experiments/embedding_runtime.py: 512 Python-doc chunks of 150–250 tokens, 50
queries, 2 cores of a Xeon shared with other jobs, so absolute figures move by 2x from run to
run; ratios hold): ONNX Runtime running a fused, dynamically quantised int8 graph is the fastest
runtime that is portable. Against sentence-transformers on torch fp32 it embeds ~1.6–2x the
tokens/s, answers a query in ~2 ms instead of ~10, keeps every chunk at cosine >= 0.99 to the
torch fp32 vectors (mean 0.996) with top-10 neighbour overlap >= 0.9, and needs only onnxruntime
+ tokenizers at run time (~120 MB with the model, against ~1.2 GB for torch). torch bf16
autocast was faster still on this Xeon (~2.6x fp32 when the machine was quiet), but only because
it has AMX: without AMX bf16 is slow, so it is not a default.

The int8 recipe (`minilm.recipe`; the cached graph's name says which) is by default "uniform":
per-token int8 activations (`minilm.per_token`: each token with its own scale) times 7-bit
per-channel weights for every matmul, the fused attention quantised too. 7-bit weights are
exact both where u8 x s8 pairs are summed in int16 (AVX2, AVX-512 without VNNI) and with
VNNI, so every x86 CPU gets the same vectors, at ~2.2x the fp32 graph with VNNI/AMX and
~1.4x on AVX2 (docs/ingest-speed.md; chunks' cosine to fp32 >= 0.99). The earlier recipes stay
selectable with $CITEWISE_INT8_RECIPE: "portable" (per-call activation scale, FFN outputs in
fp32: ~1.1-1.4x fp32 on AVX2) and "vnni" (8-bit weights, exact only with VNNI).

Execution: one session whose operators run on every core (`sessions` > 1: that many
sessions, the cores shared among them, each taking whole batches). Each session holds its
own copy of the weights (~37 MB); one session on two threads embedded as fast as two
single-threaded ones on a loaded machine (300 dev chunks, alternating runs at load 14:
23.1 and 16.8 texts/s against 20.5 and 13.4) with the same vectors, and keeps a big PDF
folder's ingest within its memory budget. Texts are tokenised a window at a time (64 texts
by default; one tokenizer, ~9 MB, both counts and encodes) and embedded one per call by
default (larger batches hold texts of one token length: no padding). With the portable
recipe int8 activations are quantised per call, so in a batch a text's vector moved with
its batch-mates (cosine 0.993–0.999 to the text alone), which made a store's vectors depend
on how its chunks happened to be batched and moved dev-set figures by a question or two
between ingests of the same corpus. Alone, a text always gets the vector its
query would get, and on two cores it was also faster: 150 texts/s against 125 for length-sorted
batches of 32 (2,048 dev-corpus chunks, two runs each; batches of 4: 142).

The vector space: int8 and fp32 vectors agree to cosine >= 0.99, so both variants share the
name "all-MiniLM-L6-v2"; a recipe that falls below that must change `name`.

Input: WordPiece via `tokenizers`, truncated at 256 tokens including [CLS] and [SEP] (the
model's max_seq_length): `count_tokens` excludes the two specials, so a chunk is read whole
only if count_tokens(text) <= 254. The graph does mean pooling over real tokens and L2
normalisation, as the sentence-transformers config (Transformer, Pooling(mean), Normalize).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from citewise.embed._util import TextVectorCache, default_threads, empty, first_row
from citewise.embed.base import Vectors
from citewise.embed.minilm.recipe import Int8Recipe
from citewise.embed.minilm.session import SEQ_LEN, MiniLMRuntime

NAME = "all-MiniLM-L6-v2"
DIM = 384
SPECIALS = 2  # [CLS] and [SEP]
READ_TOKENS = SEQ_LEN - SPECIALS  # the most count_tokens() a text may have to be read whole
BATCH = 1  # texts per call: see "Execution" above
# texts tokenised at a time (more when batches are larger, so buckets fill): their token
# ids are held until the window is embedded
WINDOW = 64
BUCKET_CHOICE = 8  # texts a window holds per batch slot (length buckets need choice)
# Calls this small are query time (an answer's candidate sentences, ~20): their vectors are
# kept, since a follow-up weighs many of the same sentences again. Ingest calls are larger
# and not kept.
RECENT_CALL = 64
RECENT_TEXTS = 4096  # a few MB of vectors


class MiniLMEmbedder:
    """Implements `Embedder` with the bundled all-MiniLM-L6-v2 (see the module docstring)."""

    name = NAME
    dim = DIM
    max_tokens = SEQ_LEN

    def __init__(
        self,
        cache_dir: Path | None = None,
        threads: int | None = None,
        variant: str = "int8",
        batch_size: int = BATCH,
        onnx_path: Path | None = None,
        sessions: int | None = None,
        recipe: Int8Recipe | None = None,
        student: bool = False,
    ) -> None:
        from citewise.embed.minilm.export import ensure_onnx_model
        from citewise.embed.minilm.weights import bundled_model_dir

        if student:  # the 3-layer student (`minilm.student`): a vector space of its own
            from citewise.embed.minilm.student import student_name

            self.name = student_name()
        path = onnx_path or ensure_onnx_model(cache_dir, variant, recipe, student)
        tokenizer = bundled_model_dir() / "tokenizer.json"
        self.onnx_path = path  # the graph file (`minilm.tokens` reads token states from it)
        self.variant = variant
        self.threads = threads or default_threads()
        self._batch = max(1, batch_size)
        workers = 1 if sessions is None else max(1, min(sessions, self.threads))
        self._runtime = MiniLMRuntime(path, tokenizer, self.threads, workers)
        self._workers = workers
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="citewise-minilm")
        self._queries = TextVectorCache()
        self._recent = TextVectorCache(RECENT_TEXTS)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return empty(DIM)
        if self._batch == 1 and len(texts) <= RECENT_CALL:
            # one text per call: a text's vector never depends on the others, so a kept
            # vector is exactly the one it would get again
            return self._recent.get_many(texts, self._embed_all)
        return self._embed_all(texts)

    def _embed_all(self, texts: Sequence[str]) -> Vectors:
        out = np.empty((len(texts), DIM), dtype=np.float32)
        window = max(WINDOW, self._batch * self._workers * BUCKET_CHOICE)
        for start in range(0, len(texts), window):
            part = list(texts[start : start + window])
            self._embed_window(part, out[start : start + len(part)])
        return out

    def _embed_window(self, texts: list[str], out: Vectors) -> None:
        encoded = self._runtime.tokenize(texts)
        size = max(1, min(self._batch, -(-len(texts) // self._workers)))  # small calls: all cores
        batches = length_buckets([len(ids) for ids in encoded], size)

        def run(rows: list[int]) -> None:
            out[rows] = self._runtime.run(*self._runtime.pad([encoded[i] for i in rows]))

        for _ in self._pool.map(run, batches):  # re-raises the first error
            pass

    def embed_query(self, text: str) -> Vectors:
        return self._queries.get(text, lambda: first_row(self._runtime.embed([text])))

    def count_tokens(self, text: str) -> int:
        return self._runtime.count_tokens(text)

    def close(self) -> None:
        """Stop the worker threads (optional: they are idle between calls)."""
        self._pool.shutdown(wait=True)


def length_buckets(lengths: Sequence[int], size: int) -> list[list[int]]:
    """Indices of `lengths` in batches of at most `size` texts of one token length each, so a
    batch has no padding to compute (the caller writes each batch's rows back by index)."""
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    batches: list[list[int]] = []
    for i in order:
        if batches and len(batches[-1]) < size and lengths[batches[-1][0]] == lengths[i]:
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches
