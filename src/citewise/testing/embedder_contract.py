"""The `Embedder` contract as pytest mixins, cut by capability: every backend's test class
subclasses `EmbedderContractTests` and provides an `embedder` fixture returning the backend
under test; a backend whose queries and documents share one embedding (no query prefix or
second tower) adds `SymmetricEmbedderTests`.

    class TestMyEmbedder(EmbedderContractTests, SymmetricEmbedderTests):
        @pytest.fixture
        def embedder(self) -> Embedder:
            return MyEmbedder()
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

import numpy as np

from citewise.embed.base import Embedder, Vectors

TEXTS = [
    "Rotate the log files every night with logrotate.",
    "x",
    "The asyncio module provides infrastructure for writing single-threaded concurrent code "
    "using coroutines, multiplexing I/O access over sockets and other resources, running "
    "network clients and servers, and other related primitives. " * 3,
    "",
    "Snapshots of the database are taken every six hours and stored in a second region.",
    "How do I parse command line arguments?",
]

SENTENCES = [
    "Rotate the log files every night.",
    "Snapshots are stored in a second region.",
    "Uploads larger than 25 MB are rejected.",
    "The bearer token expires after 12 hours.",
    "Coroutines are scheduled by the event loop.",
    "A dataclass generates __init__ and __repr__.",
    "Use argparse to parse command line options.",
    "Pickle serialises Python objects to bytes.",
    "The GIL lets one thread run bytecode at a time.",
    "Regular expressions match patterns in strings.",
    "Tabs and spaces must not be mixed for indentation.",
    "Sockets send bytes between two network endpoints.",
]


def _cos(a: Vectors, b: Vectors) -> float:
    return float(np.dot(a, b))


def _mixed_length_texts(count: int) -> list[str]:
    """`count` distinct texts of 3 to 150 words: more than one batch, so a backend that sorts
    by length reorders them."""
    rng = random.Random(7)
    words = " ".join(SENTENCES).replace(".", "").split()
    texts: dict[frozenset[str], str] = {}
    while len(texts) < count:
        picked = rng.choices(words, k=rng.choice((3, 9, 40, 150)))
        texts.setdefault(frozenset(picked), " ".join(picked))
    return list(texts.values())


class EmbedderContractTests:
    """What every embedding backend promises; needs an `embedder` fixture."""

    def test_implements_the_protocol(self, embedder: Embedder) -> None:
        assert isinstance(embedder, Embedder)
        assert embedder.name and isinstance(embedder.name, str)
        assert embedder.dim > 0 and embedder.max_tokens > 0

    def test_documents_have_shape_dtype_and_unit_norm(self, embedder: Embedder) -> None:
        vectors = embedder.embed_documents(TEXTS)
        assert vectors.shape == (len(TEXTS), embedder.dim)
        assert vectors.dtype == np.float32
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)

    def test_query_is_one_unit_vector(self, embedder: Embedder) -> None:
        vector = embedder.embed_query("how do I rotate the logs")
        assert vector.shape == (embedder.dim,)
        assert vector.dtype == np.float32
        assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-4

    def test_empty_list_gives_zero_rows(self, embedder: Embedder) -> None:
        vectors = embedder.embed_documents([])
        assert vectors.shape == (0, embedder.dim)
        assert vectors.dtype == np.float32

    def test_same_input_gives_same_vectors(self, embedder: Embedder) -> None:
        np.testing.assert_allclose(
            embedder.embed_documents(TEXTS), embedder.embed_documents(TEXTS), atol=1e-5
        )

    def test_order_is_preserved_across_length_sorted_batches(self, embedder: Embedder) -> None:
        texts = _mixed_length_texts(36)
        together = embedder.embed_documents(texts)
        alone = np.concatenate([embedder.embed_documents([t]) for t in texts])
        sims = together @ alone.T
        assert (np.argmax(sims, axis=1) == np.arange(len(texts))).all()
        # int8 activations are quantised per batch, so batch-mates move a vector very slightly
        assert float(np.min(np.diag(sims))) > 0.98

    def test_count_tokens_grows_with_text(self, embedder: Embedder) -> None:
        short = embedder.count_tokens("logging levels")
        long = embedder.count_tokens("logging levels " * 20)
        assert embedder.count_tokens("") == 0
        assert 0 < short < long

    def test_two_threads_can_embed_at_once(self, embedder: Embedder) -> None:
        expected = embedder.embed_documents(TEXTS)
        results: dict[int, Vectors] = {}
        errors: list[BaseException] = []

        def work(slot: int, fn: Callable[[], Vectors]) -> None:
            try:
                results[slot] = fn()
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [
            threading.Thread(target=work, args=(i, lambda: embedder.embed_documents(TEXTS)))
            for i in range(2)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not errors
        assert len(results) == 2
        for got in results.values():
            np.testing.assert_allclose(got, expected, atol=1e-5)


class SymmetricEmbedderTests:
    """For a backend that embeds a query as it embeds a document (needs `embedder`)."""

    def test_query_matches_its_document_embedding(self, embedder: Embedder) -> None:
        text = "Tokens expire after 12 hours."
        assert _cos(embedder.embed_query(text), embedder.embed_documents([text])[0]) > 0.999
