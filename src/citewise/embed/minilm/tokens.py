"""Contextual token vectors of the bundled MiniLM: the last layer's state of every token, for
late interaction (ColBERT-style MaxSim) over a few sentences at answer time.

The cached sentence-vector graph is loaded, its last hidden state (the input of the mean
pooling) is added as a second output, and the copy runs in a session of its own: the graph
and session that make the pooled vectors are untouched, so every stored and query vector
stays exactly what it was. Each text runs alone, as in `MiniLMEmbedder` (int8 activations are
quantised per call), truncated to the model window.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from citewise.embed._util import l2_normalize
from citewise.embed.base import Embedder, Vectors
from citewise.embed.minilm.session import SEQ_LEN
from citewise.errors import EmbedderError

POOLING_INPUT = "pool.masked"  # the pooling's first node: its first input is the last state


@dataclass(frozen=True, slots=True)
class TokenStates:
    """One text's tokens without [CLS]/[SEP]: unit vectors, their pieces and character spans."""

    vectors: Vectors  # (tokens, dim), rows L2-normalised
    pieces: tuple[str, ...]  # WordPiece strings ("##ing" for a continuation)
    offsets: tuple[tuple[int, int], ...]  # each token's span in the text

    def within(self, start: int, end: int) -> Vectors:
        """The vectors of the tokens inside text[start:end]."""
        rows = [i for i, (a, b) in enumerate(self.offsets) if a >= start and b <= end and b > a]
        return self.vectors[rows]


class TokenEncoder:
    """Contextual token vectors from a MiniLM ONNX graph (see the module docstring)."""

    def __init__(self, onnx_path: Path, tokenizer_path: Path) -> None:
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(tokenizer_path))
        self._tok.no_padding()
        self._tok.enable_truncation(max_length=SEQ_LEN)
        self._session = _token_session(onnx_path)
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> list[TokenStates]:
        out = []
        for enc in self._tok.encode_batch(list(texts)):
            ids = np.asarray([enc.ids], dtype=np.int64)
            mask = np.ones_like(ids)
            with self._lock:
                try:
                    states = self._session.run(
                        ["last_hidden_state"], {"input_ids": ids, "attention_mask": mask}
                    )[0]
                except Exception as exc:  # onnxruntime raises its own untyped errors
                    raise EmbedderError(f"ONNX Runtime failed on token states: {exc}") from exc
            real = slice(1, len(enc.ids) - 1)  # without [CLS] and [SEP]
            out.append(
                TokenStates(
                    l2_normalize(np.asarray(states[0][real], dtype=np.float32)),
                    tuple(enc.tokens[real]),
                    tuple((int(a), int(b)) for a, b in enc.offsets[real]),
                )
            )
        return out


def _token_session(onnx_path: Path) -> Any:
    import onnx
    import onnxruntime as ort

    model = onnx.load(str(onnx_path))
    state = next((n.input[0] for n in model.graph.node if n.name == POOLING_INPUT), None)
    if state is None:
        raise EmbedderError(f"{onnx_path} has no mean pooling to read token states before")
    hidden = int(model.graph.output[0].type.tensor_type.shape.dim[1].dim_value)
    model.graph.node.append(onnx.helper.make_node("Identity", [state], ["last_hidden_state"]))
    model.graph.output.append(
        onnx.helper.make_tensor_value_info(
            "last_hidden_state", onnx.TensorProto.FLOAT, ["batch", "sequence", hidden]
        )
    )
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(
            model.SerializeToString(), opts, providers=["CPUExecutionProvider"]
        )
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise EmbedderError(f"cannot load the token-state graph of {onnx_path}: {exc}") from exc


_ENCODERS: dict[Path, TokenEncoder] = {}
_ENCODERS_LOCK = threading.Lock()


def token_encoder(embedder: Embedder) -> TokenEncoder | None:
    """The token encoder of the graph behind `embedder` (one per graph file, loaded at first
    use), or None when `embedder` is not the bundled MiniLM."""
    from citewise.embed.minilm.runtime import MiniLMEmbedder
    from citewise.embed.minilm.weights import bundled_model_dir

    path = getattr(embedder, "onnx_path", None)
    if not isinstance(embedder, MiniLMEmbedder) or not isinstance(path, Path):
        return None
    with _ENCODERS_LOCK:
        if path not in _ENCODERS:
            _ENCODERS[path] = TokenEncoder(path, bundled_model_dir() / "tokenizer.json")
        return _ENCODERS[path]
