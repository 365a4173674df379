"""The Embedder protocol every embedding backend implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from citewise.types.vectors import Vectors as Vectors  # the embedders' return type


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalised float32 vectors.

    `name` identifies the vector space: the store records it and refuses to mix vectors
    from two different names. `max_tokens` is the window the model actually reads; the
    chunker keeps every child's embedded text within it (measured with `count_tokens`).
    """

    name: str
    dim: int
    max_tokens: int

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Shape (len(texts), dim), rows L2-normalised. Order is preserved."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """Shape (dim,), L2-normalised."""
        ...

    def count_tokens(self, text: str) -> int:
        """Number of model tokens `text` takes, without special tokens."""
        ...
