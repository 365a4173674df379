"""Token states of the bundled MiniLM (late interaction): read from a copy of the sentence
graph with the last hidden state as a second output. Slow: loads the real model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from citewise.embed.hashing import HashingEmbedder
from citewise.embed.minilm.runtime import MiniLMEmbedder
from citewise.embed.minilm.tokens import token_encoder

pytestmark = pytest.mark.slow

TEXT = (
    "The default is typically 128 megabytes, but might be less if your kernel settings do "
    "not support it."
)


@pytest.fixture(scope="module")
def minilm(minilm_onnx: Path) -> MiniLMEmbedder:
    return MiniLMEmbedder(onnx_path=minilm_onnx)


def test_token_states_mean_pool_to_the_sentence_vector(minilm: MiniLMEmbedder) -> None:
    encoder = token_encoder(minilm)
    assert encoder is not None
    ids = np.asarray([encoder._tok.encode(TEXT).ids], dtype=np.int64)
    pooled, states = encoder._session.run(
        None, {"input_ids": ids, "attention_mask": np.ones_like(ids)}
    )
    mean = states[0].mean(axis=0)
    assert float(mean @ pooled[0]) / float(np.linalg.norm(mean)) > 0.9999


def test_the_sentence_vectors_are_unchanged_by_the_token_path(minilm: MiniLMEmbedder) -> None:
    before = minilm.embed_documents([TEXT, "shared buffers"])
    encoder = token_encoder(minilm)
    assert encoder is not None
    encoder.encode([TEXT])
    fresh = MiniLMEmbedder(onnx_path=minilm.onnx_path)
    after = fresh._embed_all([TEXT, "shared buffers"])
    assert np.array_equal(before, after)


def test_each_token_has_a_unit_vector_and_its_span_in_the_text(minilm: MiniLMEmbedder) -> None:
    encoder = token_encoder(minilm)
    assert encoder is not None
    read = encoder.encode([TEXT])[0]
    assert read.pieces[0] == "the" and read.offsets[0] == (0, 3)
    assert np.allclose(np.linalg.norm(read.vectors, axis=1), 1.0, atol=1e-5)
    start = TEXT.index("128")
    assert len(read.within(start, start + len("128 megabytes"))) >= 2


def test_another_embedder_has_no_token_states() -> None:
    assert token_encoder(HashingEmbedder()) is None
