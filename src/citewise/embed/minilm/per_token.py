"""Per-token int8: the fp32 graph's MatMuls rewritten to multiply int8 activations, each token
with its own scale, by int8 weights, each output column with its own scale.

ONNX Runtime's dynamic quantisation gives a whole batch one activation scale, so one token's
outlier coarsens every other token's values, and a text's vector moves with its batch-mates.
Here each token row is scaled by its own largest |value| (symmetric, stored as uint8 around
128), so a text's vector is the same alone or in any batch, and short texts, whose [CLS] and
[SEP] rows dominate, keep their precision. Per matmul: Reshape → Abs → ReduceMax → scale →
QuantizeLinear (per row) → MatMulIntegerToFloat (integer product, then row × column scales).
Nodes named in `fp32_nodes` stay as they are (the fused Attention keeps its fp32 QKV weights).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

MS = "com.microsoft"
ZERO_POINT = 128  # uint8 activations are symmetric around it
EPS = 1e-8  # an all-zero row gets a tiny scale, not a division by zero


def rewrite_per_token(
    fp32: Path, dest: Path, *, weight_bits: int = 8, fp32_nodes: tuple[str, ...] = ()
) -> Path:
    """Write the per-token int8 version of the graph at `fp32` to `dest`."""
    import onnx

    model = onnx.load(str(fp32))
    graph = model.graph
    weights = {init.name: init for init in graph.initializer}
    writer = _Writer(onnx, weight_bits)
    for node in graph.node:
        weight = node.input[1] if len(node.input) > 1 else ""
        if node.op_type == "MatMul" and weight in weights and node.name not in fp32_nodes:
            array = onnx.numpy_helper.to_array(weights[weight])
            writer.matmul(node.input[0], array, node.output[0], node.name)
        else:
            writer.nodes.append(node)
            if "input_shape" in node.output:  # [batch, sequence], made by the embeddings
                writer.output_shapes()
    used = {name for node in writer.nodes for name in node.input}
    kept = [init for init in graph.initializer if init.name in used]
    del graph.node[:]
    graph.node.extend(writer.nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept + writer.inits)
    onnx.save(model, str(dest))
    return dest


class _Writer:
    """Accumulates the rewritten nodes and the new initializers."""

    def __init__(self, onnx: Any, weight_bits: int) -> None:
        self.onnx = onnx
        self.helper = onnx.helper
        self.qmax = 2 ** (weight_bits - 1) - 1
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self._names: set[str] = set()
        self._widths: set[int] = set()
        self.const("pt.eps", np.array(EPS, dtype=np.float32))
        self.const("pt.inv127", np.array(1 / 127, dtype=np.float32))
        self.const("pt.zero", np.array(0, dtype=np.float32))
        self.const("pt.zp_float", np.array(ZERO_POINT, dtype=np.float32))
        self.const("pt.zp", np.array(ZERO_POINT, dtype=np.uint8))
        self.const("pt.axis1", np.array([1], dtype=np.int64))

    def const(self, name: str, value: np.ndarray[Any, Any]) -> str:
        if name not in self._names:
            self._names.add(name)
            self.inits.append(self.onnx.numpy_helper.from_array(value, name))
        return name

    def node(self, op: str, inputs: list[str], output: str, domain: str = "", **attrs: Any) -> str:
        self.nodes.append(
            self.helper.make_node(op, inputs, [output], name=output, domain=domain, **attrs)
        )
        return output

    def output_shapes(self) -> None:
        """[batch, sequence, width] for every width a rewritten matmul outputs (model dims)."""
        for width in (384, 1536):  # the MatMuls' outputs (Attention is not rewritten)
            self._widths.add(width)
            width_name = self.const(f"pt.width{width}", np.array([width], dtype=np.int64))
            self.node("Concat", ["input_shape", width_name], f"pt.shape{width}", axis=0)

    def matmul(self, x: str, weight: np.ndarray[Any, Any], output: str, tag: str) -> None:
        rows, width = weight.shape
        if width not in self._widths:
            raise ValueError(f"{tag}: no output shape for width {width}")
        column_scale = np.maximum(np.abs(weight).max(axis=0) / self.qmax, 1e-12)
        quantised = np.clip(np.round(weight / column_scale), -self.qmax, self.qmax)
        wq = self.const(tag + ".weight_int8", quantised.astype(np.int8))
        ws = self.const(tag + ".weight_scale", column_scale.astype(np.float32))
        flat_shape = self.const(f"pt.flat{rows}", np.array([-1, rows], dtype=np.int64))
        flat = self.node("Reshape", [x, flat_shape], tag + ".rows")
        magnitude = self.node("Abs", [flat], tag + ".abs")
        largest = self.node("ReduceMax", [magnitude], tag + ".max", axes=[1], keepdims=0)
        largest = self.node("Max", [largest, "pt.eps"], tag + ".max_floor")
        scale = self.node("Mul", [largest, "pt.inv127"], tag + ".row_scale")
        # QuantizeLinear per row wants one zero point per row: 128 in the scale's shape
        zero = self.node("Mul", [scale, "pt.zero"], tag + ".zp0")
        zero = self.node("Add", [zero, "pt.zp_float"], tag + ".zp128")
        zero = self.node("Cast", [zero], tag + ".zp_u8", to=self.onnx.TensorProto.UINT8)
        xq = self.node("QuantizeLinear", [flat, scale, zero], tag + ".x_u8", axis=0)
        column = self.node("Unsqueeze", [scale, "pt.axis1"], tag + ".row_scale_col")
        product = self.node(
            "MatMulIntegerToFloat", [xq, wq, column, ws, "pt.zp"], tag + ".product", MS
        )
        self.node("Reshape", [product, f"pt.shape{width}"], output)
