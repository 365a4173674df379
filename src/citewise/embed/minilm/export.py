"""Builds the bundled all-MiniLM-L6-v2's ONNX graph once, from its weights, into the cache.

    python -m citewise.embed.minilm.export [--cache-dir DIR] [--variant int8|fp32]
        [--recipe uniform|portable|vnni] [--student] [--force]

Runs by itself at first use (a few seconds on 2 cores; needs numpy, onnx and onnxruntime,
all core dependencies — no torch):

1. write the fused fp32 graph from `model.safetensors` (`minilm.graph.build_fp32_graph`):
   ONNX Runtime's contrib ops (EmbedLayerNormalization, Attention, SkipLayerNormalization,
   BiasGelu), then mean pooling and L2 normalisation, so the session outputs finished vectors;
2. for "int8": int8 quantisation with per-channel weights by the chosen recipe
   (`minilm.recipe`; by default "uniform": 7-bit weights, per-token activations, every
   matmul);
3. check the int8 graph against the fp32 one on a few texts (worst cosine at least the
   recipe's `min_cosine`), then move the graph atomically into the cache as
   `minilm-l6-v2-int8-<recipe>-v<EXPORT_VERSION>.onnx` (fp32: `minilm-l6-v2-fp32-v<…>.onnx`).

The result depends only on the weights and the onnx/onnxruntime versions: two builds give the
same vectors. tests/embed/test_minilm.py checks the graphs against sentence-transformers on
torch wherever torch is installed (the developer's install).
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
    quantize,
    worst_cosine,
)
from citewise.embed.minilm.recipe import RECIPES, Int8Recipe, recipe_named, this_cpus_recipe
from citewise.embed.minilm.weights import bundled_model_dir
from citewise.errors import ConfigError, EmbedderError

log = logging.getLogger("citewise.embed")


def default_cache_dir() -> Path:
    """$CITEWISE_MODEL_CACHE, else ~/.cache/citewise/models."""
    env = os.environ.get("CITEWISE_MODEL_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "citewise" / "models"


def model_path(
    cache_dir: Path | None = None,
    variant: str = "int8",
    recipe: Int8Recipe | None = None,
    student: bool = False,
) -> Path:
    """Where the cache keeps `variant`'s graph; int8 by `recipe` (default: this CPU's);
    `student`: the 3-layer student's, named by its weights' hash (`minilm.student`)."""
    if variant not in VARIANTS:
        raise ConfigError(f"unknown MiniLM variant {variant!r}; valid: {', '.join(VARIANTS)}")
    kind = variant if variant == "fp32" else f"{variant}-{(recipe or this_cpus_recipe()).name}"
    model = "minilm-l6-v2"
    if student:
        from citewise.embed.minilm.student import student_tag

        model = f"minilm-l3-student-{student_tag()}"
    return (cache_dir or default_cache_dir()) / f"{model}-{kind}-v{EXPORT_VERSION}.onnx"


def ensure_onnx_model(
    cache_dir: Path | None = None,
    variant: str = "int8",
    recipe: Int8Recipe | None = None,
    student: bool = False,
) -> Path:
    """The cached ONNX file for `variant`, exporting it first if it is missing."""
    recipe = recipe or this_cpus_recipe()
    path = model_path(cache_dir, variant, recipe, student)
    if path.is_file():
        return path
    log.warning(
        "exporting the bundled MiniLM model to ONNX (%s) at %s — one time, a few seconds",
        variant,
        path,
    )
    return export_onnx(path, variant, recipe, student)


def export_onnx(
    dest: Path, variant: str = "int8", recipe: Int8Recipe | None = None, student: bool = False
) -> Path:
    """Build, (quantise and verify,) then atomically place the graph at `dest`."""
    started = time.perf_counter()
    model_dir = bundled_model_dir()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".export-", dir=dest.parent) as tmp:
        final = build_fp32_graph(model_dir, Path(tmp), student)
        if variant != "fp32":
            recipe = recipe or this_cpus_recipe()
            fused, final = final, quantize(final, Path(tmp) / f"{variant}.onnx", recipe)
            worst = worst_cosine(model_dir, final, fused, CHECK_TEXTS)
            if worst < recipe.min_cosine:
                raise EmbedderError(
                    f"ONNX export check failed: cosine {worst:.4f} to the fp32 graph is below "
                    f"{recipe.min_cosine} ({variant}, recipe {recipe.name}); the "
                    "onnx/onnxruntime versions may differ from the tested ones"
                )
        os.replace(final, dest)  # same directory: atomic, concurrent exports cannot collide
    log.warning("exported %s in %.1f s", dest.name, time.perf_counter() - started)
    return dest


def _bundled_model_dir() -> Path:
    """The model's files (kept under this name for the benchmarks)."""
    return bundled_model_dir()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m citewise.embed.minilm.export",
        description="Build the bundled all-MiniLM-L6-v2's ONNX graph from its weights once.",
    )
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="default: $CITEWISE_MODEL_CACHE or ~/.cache/citewise/models",
    )
    parser.add_argument("--variant", choices=VARIANTS, default="int8")
    parser.add_argument(
        "--recipe",
        choices=sorted(RECIPES),
        default=None,
        help="int8 recipe (default: $CITEWISE_INT8_RECIPE, else uniform)",
    )
    parser.add_argument("--student", action="store_true", help="the 3-layer student (`minilm-l3`)")
    parser.add_argument("--force", action="store_true", help="re-export even if cached")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    try:
        recipe = recipe_named(args.recipe) if args.recipe else this_cpus_recipe()
        path = model_path(args.cache_dir, args.variant, recipe, args.student)
        if args.force or not path.is_file():
            log.warning("exporting the bundled MiniLM model to ONNX (%s) …", args.variant)
            export_onnx(path, args.variant, recipe, args.student)
        print(path)
    except (EmbedderError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
