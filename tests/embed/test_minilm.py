"""The bundled MiniLM on ONNX Runtime (its graph built from the weights, without torch)
against sentence-transformers on torch (the reference, where torch is installed: the developer's
install), plus the st: backend itself. Slow: loads the real model."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from citewise.embed import create_embedder
from citewise.embed.minilm.export import ensure_onnx_model, model_path
from citewise.embed.minilm.graph import CHECK_TEXTS
from citewise.embed.minilm.recipe import RECIPES, cpu_flags, has_vnni
from citewise.embed.minilm.runtime import MiniLMEmbedder

pytestmark = pytest.mark.slow

os.environ.setdefault("HF_HUB_OFFLINE", "1")

DOCS = [
    "The logging module defines functions and classes which implement a flexible event "
    "logging system for applications and libraries.",
    "subprocess.run() runs the command described by args, waits for it to complete, then "
    "returns a CompletedProcess instance.",
    "A generator is a function which returns a generator iterator. It looks like a normal "
    "function except that it contains yield expressions.",
    "sqlite3.connect() opens a connection to an SQLite database file; use ':memory:' to open "
    "a connection to a database that is in RAM instead of on disk.",
    "how do I read a file line by line?",
]


@pytest.fixture(scope="module")
def minilm(minilm_onnx: Path) -> MiniLMEmbedder:
    return MiniLMEmbedder(onnx_path=minilm_onnx)


@pytest.fixture(scope="module")
def reference() -> Any:
    """sentence-transformers on torch fp32; the tests that need it skip where torch is absent."""
    pytest.importorskip("torch", reason="the torch reference needs the developer's install")
    from sentence_transformers import SentenceTransformer

    from citewise.embed.minilm.export import _bundled_model_dir

    return SentenceTransformer(str(_bundled_model_dir()), device="cpu")


def test_vectors_match_sentence_transformers(minilm: MiniLMEmbedder, reference: Any) -> None:
    want = reference.encode(DOCS, normalize_embeddings=True)
    got = minilm.embed_documents(DOCS)
    cosines = np.sum(got * want, axis=1)
    assert float(cosines.min()) >= 0.99, cosines


def test_fp32_graph_from_the_weights_equals_sentence_transformers(
    tmp_path: Path, reference: Any
) -> None:
    fp32 = MiniLMEmbedder(cache_dir=tmp_path, variant="fp32")
    try:
        cosines = np.sum(
            fp32.embed_documents(DOCS) * reference.encode(DOCS, normalize_embeddings=True), axis=1
        )
    finally:
        fp32.close()
    assert float(cosines.min()) >= 0.9999, cosines


def test_the_graph_is_built_where_torch_cannot_be_imported(tmp_path: Path) -> None:
    script = (
        "import sys; sys.modules['torch'] = None; sys.modules['transformers'] = None\n"
        "from pathlib import Path\n"
        "from citewise.embed.minilm.runtime import MiniLMEmbedder\n"
        f"vector = MiniLMEmbedder(cache_dir=Path({str(tmp_path)!r})).embed_query('hello')\n"
        "print(vector.shape, round(float(vector @ vector), 3))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["(384,)", "1.0"]
    assert model_path(tmp_path).is_file()


def test_identity_and_window(minilm: MiniLMEmbedder) -> None:
    assert (minilm.name, minilm.dim, minilm.max_tokens) == ("all-MiniLM-L6-v2", 384, 256)


def test_paraphrase_scores_above_unrelated_text(minilm: MiniLMEmbedder) -> None:
    query = minilm.embed_query("How can I write messages to a log file?")
    paraphrase, unrelated = minilm.embed_documents(
        ["Send log records to a file with a FileHandler.", "Bake the bread for forty minutes."]
    )
    assert float(query @ paraphrase) > float(query @ unrelated) + 0.2


def test_count_tokens_matches_the_tokenizer(minilm: MiniLMEmbedder, reference: Any) -> None:
    long_text = " ".join(DOCS) * 6  # past the window: counting must not truncate
    for text in [*DOCS, long_text, "", "naïve café — 東京"]:
        ids = reference.tokenizer(text, add_special_tokens=False)["input_ids"]
        assert minilm.count_tokens(text) == len(ids)
    assert minilm.count_tokens(long_text) > 256


def test_only_the_first_254_tokens_are_read(minilm: MiniLMEmbedder) -> None:
    head = " ".join(DOCS[:4]) * 3
    assert minilm.count_tokens(head) > 254
    a, b = minilm.embed_documents([head + " Totally different tail.", head + " Another ending."])
    assert float(a @ b) > 0.9999


def test_a_texts_vector_does_not_depend_on_what_it_is_embedded_with(
    minilm: MiniLMEmbedder, minilm_onnx: Path
) -> None:
    together = minilm.embed_documents(DOCS)
    alone = MiniLMEmbedder(onnx_path=minilm_onnx)  # keeps no vector from the call above
    try:
        for text, vector in zip(DOCS, together, strict=True):
            assert np.array_equal(alone.embed_documents([text])[0], vector)
            assert np.array_equal(alone.embed_query(text), vector)
    finally:
        alone.close()


def test_a_small_call_again_is_answered_from_the_kept_vectors(
    minilm_onnx: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = MiniLMEmbedder(onnx_path=minilm_onnx)
    runs: list[int] = []
    real_run = embedder._runtime.run
    monkeypatch.setattr(
        embedder._runtime, "run", lambda ids, mask: runs.append(len(ids)) or real_run(ids, mask)
    )
    try:
        first = embedder.embed_documents(DOCS[:3])
        assert len(runs) == 3
        again = embedder.embed_documents([DOCS[2], "A sentence not seen before.", DOCS[0]])
        assert len(runs) == 4  # only the new sentence ran through the model
        assert np.array_equal(again[0], first[2]) and np.array_equal(again[2], first[0])
        again[0, 0] = 9.0  # the caller's copy: the kept vector is not touched
        assert np.array_equal(embedder.embed_documents([DOCS[2]])[0], first[2])
    finally:
        embedder.close()


def test_the_window_is_cut_as_the_tokenizer_cuts_it(minilm: MiniLMEmbedder) -> None:
    from tokenizers import Tokenizer

    from citewise.embed.minilm.weights import bundled_model_dir

    cutting = Tokenizer.from_file(str(bundled_model_dir() / "tokenizer.json"))
    cutting.no_padding()
    cutting.enable_truncation(max_length=256)
    texts = [*DOCS, " ".join(DOCS) * 6, "", "naïve café — 東京"]
    assert minilm._runtime.tokenize(texts) == [e.ids for e in cutting.encode_batch(texts)]


def test_one_session_and_two_give_the_same_vectors(minilm_onnx: Path) -> None:
    one = MiniLMEmbedder(onnx_path=minilm_onnx, threads=2)
    two = MiniLMEmbedder(onnx_path=minilm_onnx, threads=2, sessions=2)
    try:
        assert (one._runtime.sessions, two._runtime.sessions) == (1, 2)
        texts = [f"{DOCS[i % 5]} ({i})" for i in range(100)]  # more than one window
        assert np.array_equal(one.embed_documents(texts), two.embed_documents(texts))
    finally:
        one.close()
        two.close()


def test_large_inputs_are_embedded_window_by_window(minilm: MiniLMEmbedder) -> None:
    texts = [f"{DOCS[i % 4]} (variant {i})" for i in range(1030)]  # more than one window
    vectors = minilm.embed_documents(texts)
    assert vectors.shape == (1030, 384)
    assert float(vectors[1029] @ minilm.embed_query(texts[1029])) > 0.99


def test_st_backend_embeds_a_local_model(reference: Any) -> None:
    from citewise.embed.minilm.export import _bundled_model_dir

    embedder = create_embedder(f"st:{_bundled_model_dir()}", threads=2)
    got = embedder.embed_documents(DOCS)
    assert embedder.dim == 384 and embedder.max_tokens == 256
    assert embedder.name == "st:" + _bundled_model_dir().name
    np.testing.assert_allclose(got, reference.encode(DOCS, normalize_embeddings=True), atol=1e-5)
    assert embedder.count_tokens(DOCS[0]) == len(reference.tokenizer.tokenize(DOCS[0]))


def test_first_run_exports_with_a_visible_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="citewise.embed")
    embedder = create_embedder("minilm", cache_dir=tmp_path)
    assert any("exporting the bundled MiniLM" in r.getMessage() for r in caplog.records)
    assert model_path(tmp_path).is_file()
    assert embedder.embed_query("hello").shape == (384,)


@pytest.fixture(scope="module")
def fp32_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = tmp_path_factory.mktemp("fp32")
    ensure_onnx_model(cache, "fp32")
    return cache


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_int8_recipe_keeps_the_fp32_models_vectors(
    recipe: str, fp32_cache: Path, tmp_path: Path
) -> None:
    chosen = RECIPES[recipe]
    if chosen.name == "vnni" and not has_vnni(cpu_flags()):
        pytest.skip("full-range int8 weights are exact only on a CPU with VNNI")
    texts = [*CHECK_TEXTS, *DOCS]
    int8 = MiniLMEmbedder(cache_dir=tmp_path, recipe=chosen)
    fp32 = MiniLMEmbedder(cache_dir=fp32_cache, variant="fp32")
    try:
        cosines = np.sum(int8.embed_documents(texts) * fp32.embed_documents(texts), axis=1)
    finally:
        int8.close()
        fp32.close()
    assert float(cosines.min()) >= chosen.min_cosine, cosines
    if chosen.name == "vnni":
        assert float(cosines.min()) >= 0.99, cosines


def test_the_default_graph_keeps_chunks_at_0_99_with_every_matmul_int8(
    minilm: MiniLMEmbedder, fp32_cache: Path
) -> None:
    import onnx

    fp32 = MiniLMEmbedder(cache_dir=fp32_cache, variant="fp32")
    try:
        cosines = np.sum(minilm.embed_documents(DOCS) * fp32.embed_documents(DOCS), axis=1)
    finally:
        fp32.close()
    assert float(cosines.min()) >= 0.99, cosines
    graph = onnx.load(str(minilm.onnx_path)).graph
    ops = [n.op_type for n in graph.node]
    assert ops.count("MatMulIntegerToFloat") == 18  # 6 x (attention output, FFN up, FFN down)
    assert ops.count("QAttention") == 6 and "MatMul" not in ops


def test_batches_by_token_length_keep_each_texts_row(fp32_cache: Path) -> None:
    texts = [f"{DOCS[i % 4]} (variant {i})" for i in range(12)]  # lengths repeat, interleaved
    batched = MiniLMEmbedder(cache_dir=fp32_cache, variant="fp32", batch_size=4)
    alone = MiniLMEmbedder(cache_dir=fp32_cache, variant="fp32")
    try:
        together = batched._embed_all(texts)  # past the kept-vector path: the batching itself
        one_by_one = np.concatenate([alone.embed_documents([t]) for t in texts])
    finally:
        batched.close()
        alone.close()
    np.testing.assert_allclose(together, one_by_one, atol=1e-5)
