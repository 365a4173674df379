"""Building blocks of the MiniLM ONNX export (used by `citewise.embed.minilm.export`).

Torch, transformers and onnx are imported inside the functions: only exporting needs them.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from citewise.errors import EmbedderError

EXPORT_VERSION = 1  # bump when the graph or the quantisation recipe changes
# Worst cosine to the torch model on CHECK_TEXTS an export must reach to be accepted.
VARIANTS = {"int8": 0.98, "fp32": 0.9999}
HIDDEN, HEADS, FFN = 384, 12, 1536
OPSET = 17

# Quantisation recipe: chosen by benchmarks/experiments/embedding_runtime.py (see minilm.runtime).
REDUCE_RANGE = True  # 7-bit weights: no u8×s8 saturation on AVX2 CPUs without VNNI
KEEP_FFN_OUTPUT_FP32 = True  # the 1536→384 projections are the most outlier-sensitive

CHECK_TEXTS = (
    "How do I read a file line by line in Python?",
    "The logging module defines functions and classes which implement a flexible event "
    "logging system for applications and libraries.",
    "asyncio.gather(*aws, return_exceptions=False) runs awaitable objects in the aws sequence "
    "concurrently. If any awaitable in aws is a coroutine, it is automatically scheduled as a "
    "Task. " * 8,  # longer than the 256-token window: exercises truncation
    "ok",
)


def _torch() -> Any:
    try:
        import torch
        import transformers  # noqa: F401
    except ImportError as exc:
        raise EmbedderError(
            "exporting the bundled MiniLM model to ONNX needs torch and transformers, which are "
            "not installed. Install the CPU build first: pip install torch==2.13.0 "
            "--index-url https://download.pytorch.org/whl/cpu, then pip install "
            "'citewise[model]' and run: python -m citewise.embed.minilm.export"
        ) from exc
    return torch


def _pooled_model(model_dir: Path) -> Any:
    """BertModel + mean pooling over real tokens + L2 norm, as one torch module."""
    torch = _torch()
    from transformers import AutoModel

    bert = AutoModel.from_pretrained(str(model_dir), attn_implementation="eager").eval()

    class Pooled(torch.nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            hidden = self.bert(
                input_ids=input_ids,
                attention_mask=attention_mask,
                token_type_ids=torch.zeros_like(input_ids),
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return mean / mean.norm(dim=1, keepdim=True).clamp(min=1e-12)

    return Pooled().eval()


def build_fp32_graph(model_dir: Path, workdir: Path) -> Path:
    """Trace the pooled model to ONNX and fuse it for ONNX Runtime; returns the fused file."""
    torch = _torch()
    with quiet():
        return _build(torch, model_dir, workdir)


def _build(torch: Any, model_dir: Path, workdir: Path) -> Path:
    from onnxruntime.transformers.optimizer import optimize_model

    model = _pooled_model(model_dir)
    raw, fused = workdir / "raw.onnx", workdir / "fp32.onnx"
    dummy = torch.ones((2, 16), dtype=torch.int64)
    axes = {0: "batch", 1: "sequence"}
    with torch.inference_mode():
        torch.onnx.export(
            model,
            (dummy, dummy),
            str(raw),
            dynamo=False,
            input_names=["input_ids", "attention_mask"],
            output_names=["sentence_embedding"],
            dynamic_axes={
                "input_ids": axes,
                "attention_mask": axes,
                "sentence_embedding": {0: "batch"},
            },
            opset_version=OPSET,
            external_data=False,
        )
    optimized = optimize_model(
        str(raw), model_type="bert", num_heads=HEADS, hidden_size=HIDDEN, opt_level=1
    )
    optimized.save_model_to_file(str(fused))
    return fused


def ffn_output_nodes(path: Path) -> list[str]:
    """Names of the MatMul nodes whose weight is FFN×HIDDEN (the FFN output projections)."""
    import onnx

    model = onnx.load(str(path))
    shapes = {init.name: tuple(init.dims) for init in model.graph.initializer}
    return [
        node.name
        for node in model.graph.node
        if node.op_type == "MatMul" and any(shapes.get(i) == (FFN, HIDDEN) for i in node.input)
    ]


def quantize(
    fp32: Path,
    dest: Path,
    *,
    per_channel: bool = True,
    reduce_range: bool = REDUCE_RANGE,
    keep_ffn_output_fp32: bool = KEEP_FFN_OUTPUT_FP32,
) -> Path:
    """Dynamic int8 quantisation of the fused graph's MatMul/Attention weights (activations
    are quantised per batch at run time). Per-tensor weights lose ~6 points of cosine."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with quiet():
        quantize_dynamic(
            str(fp32),
            str(dest),
            weight_type=QuantType.QInt8,
            per_channel=per_channel,
            reduce_range=reduce_range,
            nodes_to_exclude=ffn_output_nodes(fp32) if keep_ffn_output_fp32 else [],
            extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
        )
    return dest


@contextmanager
def quiet() -> Iterator[None]:
    """Silence the exporters' and quantiser's warnings, progress bars and INFO chatter."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        from transformers.utils import logging as hf_logging

        hf: Any = hf_logging
        hf.set_verbosity_error()
        hf.disable_progress_bar()
    except ImportError:
        pass
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        root.setLevel(level)


def check_against_torch(model_dir: Path, onnx_path: Path, texts: tuple[str, ...]) -> float:
    """Worst cosine between the ONNX graph's vectors and the torch model's on `texts`."""
    torch = _torch()
    from citewise.embed.minilm.runtime import MiniLMRuntime

    runtime = MiniLMRuntime(onnx_path, model_dir / "tokenizer.json", threads=1)
    got = np.concatenate([runtime.embed([text]) for text in texts])  # one at a time, as queries
    ids, mask = runtime.encode(list(texts))
    with quiet(), torch.inference_mode():
        want = _pooled_model(model_dir)(torch.from_numpy(ids), torch.from_numpy(mask)).numpy()
    return float(np.min(np.sum(got * want, axis=1)))
