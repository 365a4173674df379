"""Small helpers shared by the embedding backends: normalisation, batching, token estimates."""

from __future__ import annotations

import ctypes
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from citewise.embed.base import Vectors

T = TypeVar("T")

# Runs of word characters and single punctuation marks: roughly how WordPiece splits text.
_PIECE = re.compile(r"\w+|[^\w\s]")
_LONG_WORD = 6  # a word piece covers ~4–6 characters of an English word


def estimate_tokens(text: str) -> int:
    """A WordPiece-like token count without a tokenizer: one per punctuation mark, one per
    word, plus one per further 6 characters of a long word (good to ~±25% on prose)."""
    total = 0
    for piece in _PIECE.findall(text):
        total += 1 + (len(piece) - 1) // _LONG_WORD
    return total


def l2_normalize(vectors: npt.ArrayLike) -> Vectors:
    """Rows scaled to unit length (all-zero rows stay zero), as contiguous float32."""
    arr = np.ascontiguousarray(vectors, dtype=np.float32)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    np.maximum(norms, 1e-12, out=norms)
    return np.ascontiguousarray(arr / norms, dtype=np.float32)


def batched(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """Consecutive slices of at most `size` items."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def empty(dim: int) -> Vectors:
    return np.zeros((0, dim), dtype=np.float32)


def default_threads() -> int:
    """Cores this process may run on (cgroup/affinity aware where the OS says so)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def release_freed_memory() -> None:
    """Hands heap memory Python and native libraries freed back to the system (glibc keeps
    it otherwise, and the next peak lands on top of it); nothing where libc is not glibc."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _load_libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "malloc_trim") else None
    except OSError:  # not glibc (macOS, musl): nothing to trim
        return None


_LIBC = _load_libc()


def first_row(vectors: Vectors) -> Vectors:
    """Row 0 as a (dim,) float32 array (what `embed_query` returns)."""
    return np.ascontiguousarray(vectors[0], dtype=np.float32)


class TextVectorCache:
    """The last `size` vectors by text, read-only. One question is embedded by the intent
    router, the retriever, the reranker and the answerer; a follow-up's answer weighs many of
    the sentences the previous answer weighed. The cache makes each of those one model call."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._vectors: OrderedDict[str, Vectors] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str, compute: Callable[[], Vectors]) -> Vectors:
        """The vector of one text (as `compute` gives it, made read-only)."""
        found = self._lookup([text])
        if found:
            return found[text]
        vector = compute()
        vector.setflags(write=False)
        self._keep(text, vector)
        return vector

    def get_many(self, texts: Sequence[str], compute: Callable[[list[str]], Vectors]) -> Vectors:
        """The vectors of `texts`, in order: cached ones as they are, the others from one
        `compute` call with each missing text once (rows in the order given)."""
        found = self._lookup(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            for text, row in zip(missing, compute(missing), strict=True):
                vector = np.array(row, dtype=np.float32)  # not a view keeping the batch alive
                vector.setflags(write=False)
                found[text] = vector
                self._keep(text, vector)
        return np.stack([found[t] for t in texts])

    def _lookup(self, texts: Sequence[str]) -> dict[str, Vectors]:
        """The kept vectors of those of `texts` that have one (each marked recently used)."""
        found: dict[str, Vectors] = {}
        with self._lock:
            for text in texts:
                vector = self._vectors.get(text)
                if vector is not None:
                    self._vectors.move_to_end(text)
                    found[text] = vector
        return found

    def _keep(self, text: str, vector: Vectors) -> None:
        with self._lock:
            self._vectors[text] = vector
            self._vectors.move_to_end(text)
            while len(self._vectors) > self.size:
                self._vectors.popitem(last=False)
