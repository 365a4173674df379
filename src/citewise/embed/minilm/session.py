"""The ONNX Runtime sessions and the tokenizer behind a MiniLM graph that outputs sentence
vectors (no model files or caches: `minilm.runtime` chooses the graph, `minilm.export` builds
it and checks it against a reference with these sessions)."""

from __future__ import annotations

import queue
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from citewise.embed._util import release_freed_memory
from citewise.embed.base import Vectors
from citewise.errors import EmbedderError

SEQ_LEN = 256  # max_seq_length of the sentence-transformers config, specials included

IntArray = npt.NDArray[np.int64]


def _session(onnx_path: Path, threads: int) -> Any:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Idle workers sleep instead of spinning: the ingest parser shares the cores.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise EmbedderError(f"cannot load ONNX model {onnx_path}: {exc}") from exc


def window(ids: list[int]) -> list[int]:
    """The ids of [CLS] text [SEP] cut to SEQ_LEN, the [SEP] kept."""
    return ids if len(ids) <= SEQ_LEN else [*ids[: SEQ_LEN - 1], ids[-1]]


class MiniLMRuntime:
    """Tokenizer + ONNX Runtime session for a MiniLM graph that outputs sentence vectors."""

    def __init__(
        self, onnx_path: Path, tokenizer_path: Path, threads: int, sessions: int = 1
    ) -> None:
        from tokenizers import Tokenizer

        # one tokenizer (~9 MB) counts and encodes: it does not truncate, `tokenize` does
        self._tok = Tokenizer.from_file(str(tokenizer_path))
        self._tok.no_padding()
        self._tok.no_truncation()
        self.sessions = max(1, sessions)
        per_session = max(1, threads // self.sessions)
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()
        for _ in range(self.sessions):
            self._idle.put(_session(onnx_path, per_session))
            # loading parses the whole graph file; the copy it leaves behind goes back
            release_freed_memory()

    def count_tokens(self, text: str) -> int:
        return len(self._tok.encode(text, add_special_tokens=False).ids)

    def tokenize(self, texts: list[str]) -> list[list[int]]:
        """Token ids with the specials, truncated to the model window as `tokenizers` does
        ([CLS], the text's first SEQ_LEN - 2 tokens, [SEP])."""
        return [window(e.ids) for e in self._tok.encode_batch(texts)]

    @staticmethod
    def pad(encoded: Sequence[list[int]]) -> tuple[IntArray, IntArray]:
        """Token ids and attention mask, right-padded to the longest row."""
        width = max(len(row) for row in encoded)
        ids = np.zeros((len(encoded), width), dtype=np.int64)
        mask = np.zeros((len(encoded), width), dtype=np.int64)
        for i, row in enumerate(encoded):
            ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        return ids, mask

    def encode(self, texts: list[str]) -> tuple[IntArray, IntArray]:
        return self.pad(self.tokenize(texts))

    def run(self, ids: IntArray, mask: IntArray) -> Vectors:
        """Vectors for one padded batch, on whichever session is idle (waits for one)."""
        session = self._idle.get()
        try:
            out = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise EmbedderError(f"ONNX Runtime failed on a batch of {len(ids)}: {exc}") from exc
        finally:
            self._idle.put(session)
        return np.ascontiguousarray(out, dtype=np.float32)

    def embed(self, texts: list[str]) -> Vectors:
        """One batch, in the given order (no sorting)."""
        return self.run(*self.encode(texts))
