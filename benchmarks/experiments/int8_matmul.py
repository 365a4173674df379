"""One MiniLM matmul, fp32 against ONNX Runtime's int8 kernels, per shape (CPU time, 1 thread).

    python benchmarks/experiments/int8_matmul.py [ROWS]   (AVX2-only: LD_PRELOAD=avx2_only.so)

Shapes: a 140-token text through the attention output (384x384), QKV (384x1152), FFN up
(384x1536) and FFN down (1536x384). Sides: fp32 MatMul; MatMulIntegerToFloat (u8 x 7-bit s8)
with a constant activation scale (the kernel's fused path) and with a per-row one (as the
per-token graph feeds it); MatMulNBits with 8-bit blockwise weights and int8 compute
(accuracy_level 4, blocks of 128). Best of 5 rounds of 50 runs each; docs/ingest-speed.md.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

SHAPES = ((384, 384), (384, 1152), (384, 1536), (1536, 384))
MS = "com.microsoft"


def model(node: Any, x_type: int, rows: int, k: int, inits: list[Any]) -> bytes:
    x = helper.make_tensor_value_info(node.input[0], x_type, [1, rows, k])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph([node], "g", [x], [y], inits)
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString()


def sides(w: np.ndarray[Any, Any], rows: int) -> dict[str, tuple[bytes, dict[str, Any]]]:
    k, n = w.shape
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, rows, k)).astype(np.float32)
    xq = rng.integers(0, 255, (1, rows, k)).astype(np.uint8)
    scale = np.abs(w).max(axis=0) / 63
    wq = np.clip(np.round(w / scale), -63, 63).astype(np.int8)
    inits = [
        numpy_helper.from_array(wq, "wq"),
        numpy_helper.from_array(scale.astype(np.float32), "ws"),
        numpy_helper.from_array(np.array(128, np.uint8), "zp"),
        numpy_helper.from_array(np.array(1, np.float32), "one"),
        numpy_helper.from_array(np.full((1, rows, 1), 0.01, np.float32), "rows"),
    ]
    blocks = w.T.reshape(n, k // 128, 128)
    block_scale = np.maximum(np.abs(blocks).max(-1) / 127, 1e-12)
    wb = (np.clip(np.round(blocks / block_scale[..., None]), -127, 127) + 128).astype(np.uint8)
    nbits = [
        numpy_helper.from_array(wb, "wb"),
        numpy_helper.from_array(block_scale.reshape(-1).astype(np.float32), "bs"),
    ]
    fp32 = helper.make_node("MatMul", ["x", "w"], ["y"])

    def i2f(a_scale: str) -> Any:
        inputs = ["xq", "wq", a_scale, "ws", "zp"]
        return helper.make_node("MatMulIntegerToFloat", inputs, ["y"], domain=MS)

    blockwise = helper.make_node(
        "MatMulNBits", ["x", "wb", "bs"], ["y"], domain=MS,
        K=k, N=n, bits=8, block_size=128, accuracy_level=4,
    )  # fmt: skip
    f32 = TensorProto.FLOAT
    return {
        "fp32": (model(fp32, f32, rows, k, [numpy_helper.from_array(w, "w")]), {"x": x}),
        "int8 unit scale": (model(i2f("one"), TensorProto.UINT8, rows, k, inits), {"xq": xq}),
        "int8 per-row scale": (model(i2f("rows"), TensorProto.UINT8, rows, k, inits), {"xq": xq}),
        "nbits8 int8": (model(blockwise, f32, rows, k, nbits), {"x": x}),
    }  # fmt: skip


def main(argv: list[str]) -> int:
    rows = int(argv[0]) if argv else 140
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.log_severity_level = 3
    for k, n in SHAPES:
        w = np.random.default_rng(0).standard_normal((k, n)).astype(np.float32)
        runs = {
            name: (ort.InferenceSession(graph, opts, providers=["CPUExecutionProvider"]), feeds)
            for name, (graph, feeds) in sides(w, rows).items()
        }
        best = dict.fromkeys(runs, float("inf"))
        for _ in range(5):
            for name, (session, feeds) in runs.items():
                session.run(None, feeds)
                started = time.process_time()
                for _ in range(50):
                    session.run(None, feeds)
                best[name] = min(best[name], (time.process_time() - started) / 50)
        cells = "  ".join(f"{name} {best['fp32'] / s:.2f}x" for name, s in best.items())
        print(f"{k}x{n}: fp32 {best['fp32'] * 1e6:.0f} us  {cells}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
