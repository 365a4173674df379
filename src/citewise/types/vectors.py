"""Embeddings as they travel between the embedder, the store, search and answering."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]
