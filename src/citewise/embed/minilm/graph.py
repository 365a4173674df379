"""The MiniLM ONNX graph, written from the model's weights with onnx's helpers (no torch).

`build_fp32_graph` writes the graph ONNX Runtime's transformer optimizer makes of the traced
BertModel + mean pooling + L2 normalisation: EmbedLayerNormalization, then per layer
Attention, MatMul + SkipLayerNormalization, MatMul + BiasGelu, MatMul + SkipLayerNormalization
(all ORT contrib ops), then the pooling. `quantize` turns it into the int8 graph. onnx is
imported inside the functions: only building the graph needs it.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from citewise.embed.minilm.recipe import Int8Recipe
from citewise.embed.minilm.weights import FloatArray, read_config, read_safetensors
from citewise.errors import EmbedderError

EXPORT_VERSION = 4  # bump when the graph or a quantisation recipe changes
VARIANTS = ("int8", "fp32")  # int8: the recipe for this CPU (minilm.recipe)
HIDDEN, HEADS, FFN, LAYERS = 384, 12, 1536, 6
OPSET = 17
MS = "com.microsoft"

CHECK_TEXTS = (
    "How do I read a file line by line in Python?",
    "The logging module defines functions and classes which implement a flexible event "
    "logging system for applications and libraries.",
    "asyncio.gather(*aws, return_exceptions=False) runs awaitable objects in the aws sequence "
    "concurrently. If any awaitable in aws is a coroutine, it is automatically scheduled as a "
    "Task. " * 8,  # longer than the 256-token window: exercises truncation
    "ok",
)


def _onnx() -> Any:
    try:
        import onnx
    except ImportError as exc:
        raise EmbedderError(
            "building the bundled MiniLM model's ONNX graph needs the onnx package: "
            "pip install onnx (a dependency of citewise)"
        ) from exc
    return onnx


def build_fp32_graph(model_dir: Path, workdir: Path, student: bool = False) -> Path:
    """Write the fused fp32 graph of the weights in `model_dir` to `workdir`/fp32.onnx
    (`student`: its layers replaced by the 3-layer student's, `minilm.student`)."""
    onnx = _onnx()
    _check_shape(read_config(model_dir))
    weights = read_safetensors(model_dir / "model.safetensors")
    layers = LAYERS
    if student:
        from citewise.embed.minilm.student import layer_count, student_weights

        weights = student_weights(weights)
        layers = layer_count(weights)
    graph = _Graph(onnx, weights)
    graph.embeddings()
    hidden = "embedded"
    for layer in range(layers):
        hidden = graph.layer(layer, hidden)
    graph.pooling(hidden)
    dest = workdir / "fp32.onnx"
    onnx.save(graph.model(), str(dest))
    return dest


def _check_shape(config: dict[str, object]) -> None:
    want = {
        "hidden_size": HIDDEN,
        "num_attention_heads": HEADS,
        "intermediate_size": FFN,
        "num_hidden_layers": LAYERS,
        "hidden_act": "gelu",
    }
    wrong = {key: config.get(key) for key, value in want.items() if config.get(key) != value}
    if wrong:
        raise EmbedderError(f"not an all-MiniLM-L6-v2 config: {wrong}")


class _Graph:
    """Accumulates nodes and initializers; tensor names follow the weights' names."""

    def __init__(self, onnx: Any, weights: dict[str, FloatArray]) -> None:
        self.onnx = onnx
        self.helper = onnx.helper
        self.weights = weights
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self.eps = 1e-12

    def const(self, name: str, value: np.ndarray[Any, Any]) -> str:
        self.inits.append(self.onnx.numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def weight(self, name: str, transpose: bool = False) -> str:
        array = self.weights[name]
        return self.const(name, array.T if transpose else array)

    def node(self, op: str, inputs: list[str], output: str, domain: str = "", **attrs: Any) -> str:
        self.nodes.append(
            self.helper.make_node(op, inputs, [output], name=output, domain=domain, **attrs)
        )
        return output

    def embeddings(self) -> None:
        int32 = self.onnx.TensorProto.INT32
        ids = self.node("Cast", ["input_ids"], "input_ids_int32", to=int32)
        mask = self.node("Cast", ["attention_mask"], "attention_mask_int32", to=int32)
        shape = self.node("Shape", ["input_ids"], "input_shape")
        zero = self.helper.make_tensor("zero", int32, [1], [0])
        segments = self.node("ConstantOfShape", [shape], "segment_ids", value=zero)
        p = "embeddings."
        inputs = [
            ids,
            segments,
            self.weight(p + "word_embeddings.weight"),
            self.weight(p + "position_embeddings.weight"),
            self.weight(p + "token_type_embeddings.weight"),
            self.weight(p + "LayerNorm.weight"),
            self.weight(p + "LayerNorm.bias"),
            mask,
        ]
        self.nodes.append(
            self.helper.make_node(
                "EmbedLayerNormalization",
                inputs,
                ["embedded", "mask_index"],
                name="embedded",
                domain=MS,
                epsilon=self.eps,
            )
        )

    def layer(self, index: int, hidden: str) -> str:
        p = f"encoder.layer.{index}."
        attn = p + "attention.self."
        qkv_w = np.concatenate(
            [self.weights[attn + part + ".weight"].T for part in ("query", "key", "value")], 1
        )
        qkv_b = np.concatenate(
            [self.weights[attn + part + ".bias"] for part in ("query", "key", "value")]
        )
        context = self.node(
            "Attention",
            [
                hidden,
                self.const(attn + "qkv.weight", qkv_w),
                self.const(attn + "qkv.bias", qkv_b),
                "mask_index",
            ],
            p + "attention.context",
            domain=MS,
            num_heads=HEADS,
        )
        out = p + "attention.output."
        projected = self.node(
            "MatMul", [context, self.weight(out + "dense.weight", True)], out + "dense"
        )
        attended = self._skip_norm(projected, hidden, out)
        inner = p + "intermediate.dense."
        up = self.node("MatMul", [attended, self.weight(inner + "weight", True)], inner + "matmul")
        act = self.node("BiasGelu", [up, self.weight(inner + "bias")], inner + "gelu", domain=MS)
        down = p + "output."
        projected = self.node(
            "MatMul", [act, self.weight(down + "dense.weight", True)], down + "dense"
        )
        return self._skip_norm(projected, attended, down)

    def _skip_norm(self, value: str, skip: str, prefix: str) -> str:
        """LayerNorm(value + dense bias + skip), as one SkipLayerNormalization."""
        inputs = [
            value,
            skip,
            self.weight(prefix + "LayerNorm.weight"),
            self.weight(prefix + "LayerNorm.bias"),
            self.weight(prefix + "dense.bias"),
        ]
        return self.node(
            "SkipLayerNormalization", inputs, prefix + "LayerNorm", MS, epsilon=self.eps
        )

    def pooling(self, hidden: str) -> None:
        """Mean over real tokens, then L2 normalisation (sentence-transformers' modules)."""
        one = self.const("axis_1", np.array([1], dtype=np.int64))
        last = self.const("axis_last", np.array([-1], dtype=np.int64))
        mask = self.node("Unsqueeze", ["attention_mask", last], "pool.mask")
        weights = self.node("Cast", [mask], "pool.weights", to=self.onnx.TensorProto.FLOAT)
        masked = self.node("Mul", [hidden, weights], "pool.masked")
        total = self.node("ReduceSum", [masked, one], "pool.sum", keepdims=0)
        count = self.node("ReduceSum", [weights, one], "pool.count", keepdims=0)
        floor = self.const("pool.count_floor", np.array(1e-9, dtype=np.float32))
        count = self.node("Clip", [count, floor], "pool.count_clipped")
        mean = self.node("Div", [total, count], "pool.mean")
        norm = self.node("ReduceL2", [mean], "pool.norm", axes=[1], keepdims=1)
        norm_floor = self.const("pool.norm_floor", np.array(1e-12, dtype=np.float32))
        norm = self.node("Clip", [norm, norm_floor], "pool.norm_clipped")
        self.node("Div", [mean, norm], "sentence_embedding")

    def model(self) -> Any:
        helper, tp = self.helper, self.onnx.TensorProto
        inputs = [
            helper.make_tensor_value_info(name, tp.INT64, ["batch", "sequence"])
            for name in ("input_ids", "attention_mask")
        ]
        output = helper.make_tensor_value_info("sentence_embedding", tp.FLOAT, ["batch", HIDDEN])
        graph = helper.make_graph(self.nodes, "minilm_l6_v2", inputs, [output], self.inits)
        opsets = [helper.make_opsetid("", OPSET), helper.make_opsetid(MS, 1)]
        return helper.make_model(
            graph, opset_imports=opsets, ir_version=8, producer_name="citewise"
        )


def quantize(fp32: Path, dest: Path, recipe: Int8Recipe, *, per_channel: bool = True) -> Path:
    """Int8 quantisation of the fused graph's MatMul/Attention weights by `recipe`: per token
    (`minilm.per_token`), or ONNX Runtime's dynamic quantisation (activations quantised per
    call at run time). Per-tensor weights lose ~6 points of cosine."""
    onnx = _onnx()
    from onnxruntime.quantization import QuantType, quantize_dynamic

    ops: list[str] | None = None  # every op ONNX Runtime can quantise
    if recipe.per_token:
        from citewise.embed.minilm.per_token import rewrite_per_token

        bits = 7 if recipe.reduce_range else 8
        per_token = dest.with_suffix(".per-token.onnx")
        fp32 = rewrite_per_token(fp32, per_token, weight_bits=bits, fp32_nodes=recipe.fp32_nodes)
        # the embedding tables (uint8, ~35 MB less per session) and the recipe's other ops;
        # the matmuls are done
        ops = list(recipe.dynamic_ops)
    with quiet():
        quantize_dynamic(
            str(fp32),
            str(dest),
            op_types_to_quantize=ops,
            weight_type=QuantType.QInt8,
            per_channel=per_channel,
            reduce_range=recipe.reduce_range,
            nodes_to_exclude=list(recipe.fp32_nodes),
            extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
        )
    return dest


@contextmanager
def quiet() -> Iterator[None]:
    """Silence the quantiser's warnings and INFO chatter."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        root.setLevel(level)


def worst_cosine(model_dir: Path, graph: Path, reference: Path, texts: tuple[str, ...]) -> float:
    """Worst cosine between two graphs' vectors on `texts`, each text embedded alone."""
    from citewise.embed.minilm.session import MiniLMRuntime

    tokenizer = model_dir / "tokenizer.json"
    got_runtime = MiniLMRuntime(graph, tokenizer, threads=1)
    want_runtime = MiniLMRuntime(reference, tokenizer, threads=1)
    got = np.concatenate([got_runtime.embed([text]) for text in texts])
    want = np.concatenate([want_runtime.embed([text]) for text in texts])
    return float(np.min(np.sum(got * want, axis=1)))
