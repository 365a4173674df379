"""A deterministic feature-hashing embedder for fast tests.

Word unigrams and character trigrams (of each lower-cased word, padded with spaces) are hashed
with BLAKE2b into `dim` buckets with a hash-derived sign, summed, and L2-normalised (a text
without words gets one fixed unit vector). Texts that
share words or word fragments get similar vectors; there is no notion of synonyms, so it is
semantically weak, but it is exact, fast, needs no model, and the same on every machine.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from citewise.embed._util import empty, estimate_tokens, first_row, l2_normalize
from citewise.embed.base import Vectors
from citewise.errors import ConfigError

_WORD = re.compile(r"\w+")
_TRIGRAM_WEIGHT = 0.5  # words carry most of the signal; trigrams smooth over inflections


@lru_cache(maxsize=1 << 16)
def _bucket(feature: str, dim: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dim, (1.0 if (value >> 63) & 1 else -1.0)


def _features(text: str) -> list[tuple[str, float]]:
    feats: list[tuple[str, float]] = [("empty:", 1.0)] if not _WORD.search(text) else []
    for word in _WORD.findall(text.lower()):
        feats.append(("w:" + word, 1.0))
        padded = f" {word} "
        feats.extend(("c:" + padded[i : i + 3], _TRIGRAM_WEIGHT) for i in range(len(padded) - 2))
    return feats


class HashingEmbedder:
    """Implements `Embedder`. `name` is "hashing-<dim>"."""

    def __init__(self, dim: int = 384, max_tokens: int = 512) -> None:
        if dim < 8:
            raise ConfigError(f"hashing embedder: dim must be at least 8, got {dim}")
        self.dim = dim
        self.max_tokens = max_tokens
        self.name = f"hashing-{dim}"

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        for feature, weight in _features(text):
            index, sign = _bucket(feature, self.dim)
            vec[index] += sign * weight
        return vec

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return empty(self.dim)
        return l2_normalize(np.stack([self._vector(t) for t in texts]))

    def embed_query(self, text: str) -> Vectors:
        return first_row(self.embed_documents([text]))

    def count_tokens(self, text: str) -> int:
        return estimate_tokens(text)
