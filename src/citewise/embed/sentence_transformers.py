"""Any local sentence-transformers model (spec "st:/path/to/model"), on torch, CPU.

Nothing is downloaded: the path must be a directory holding a saved sentence-transformers
model (HF_HUB_OFFLINE is forced on). `max_tokens` is the model's `max_seq_length`, special
tokens included (as for "minilm"); `count_tokens` uses the model's own tokenizer and excludes
them, so a chunk is read whole if count_tokens(text) <= max_tokens - 2 for BERT-like models.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from citewise.embed._util import default_threads, empty, first_row, l2_normalize
from citewise.embed.base import Vectors
from citewise.errors import ConfigError, EmbedderError

BATCH = 32


def _load(path: Path, threads: int) -> Any:
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        import torch
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise EmbedderError(
            "the st: embedder needs sentence-transformers and torch (CPU build): "
            "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu "
            "sentence-transformers"
        ) from exc
    torch.set_num_threads(threads)
    try:
        return SentenceTransformer(str(path), device="cpu", local_files_only=True)
    except Exception as exc:  # a broken or partial model directory
        raise EmbedderError(f"cannot load sentence-transformers model {path}: {exc}") from exc


class SentenceTransformerEmbedder:
    """Implements `Embedder`; `name` is "st:<directory name>"."""

    def __init__(self, path: Path, threads: int | None = None, batch_size: int = BATCH) -> None:
        if not path.is_dir():
            raise ConfigError(f"st: embedder: {path} is not a directory holding a model")
        self._model = _load(path, threads or default_threads())
        self.name = f"st:{path.resolve().name}"
        model = self._model
        get_dim = getattr(model, "get_embedding_dimension", None)  # renamed in v5
        dim = get_dim() if get_dim else model.get_sentence_embedding_dimension()
        if not dim:
            raise EmbedderError(f"sentence-transformers model {path} reports no dimension")
        self.dim = int(dim)
        self.max_tokens = int(self._model.max_seq_length)
        self._batch = batch_size
        self._lock = threading.Lock()  # torch already uses every core for one batch

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return empty(self.dim)
        with self._lock:
            vectors = self._model.encode(
                list(texts),
                batch_size=self._batch,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return l2_normalize(np.asarray(vectors, dtype=np.float32))

    def embed_query(self, text: str) -> Vectors:
        return first_row(self.embed_documents([text]))

    def count_tokens(self, text: str) -> int:
        ids = self._model.tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"]
        return len(ids)
