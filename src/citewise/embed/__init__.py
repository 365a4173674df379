"""Embedding backends behind one protocol (`Embedder`), created from a spec string.

>>> from citewise.embed import create_embedder
>>> e = create_embedder("hashing")
>>> e.embed_documents(["a", "b"]).shape
(2, 384)

The default, "minilm", is the bundled all-MiniLM-L6-v2 run by ONNX Runtime as a fused,
per-channel int8 graph (see `citewise.embed.minilm.runtime` for why, and
`benchmarks/experiments/embedding_runtime.py` for the measurements).
"""

from __future__ import annotations

from citewise.embed.base import Embedder, Vectors
from citewise.embed.registry import VALID_SPECS, create_embedder

__all__ = ["VALID_SPECS", "Embedder", "Vectors", "create_embedder"]
