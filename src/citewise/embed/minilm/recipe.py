"""Which int8 quantisation recipe a graph is built with, and which suits this CPU.

ONNX Runtime multiplies uint8 activations by int8 weights. With VNNI (AVX512-VNNI or AVX-VNNI)
one instruction sums four such products straight into int32, so full 8-bit weights are exact.
Without it (plain AVX2 / AVX-512) pairs of products are summed in saturating int16 first, so
weights are reduced to 7 bits to stay exact.

The default, "uniform", is exact on both kinds (7-bit weights) and so gives every x86 CPU the
same vectors: each token's activations get their own scale (`minilm.per_token`), which wins
back what 7-bit weights lose, so every matmul, the FFN outputs included, runs in int8, and the
fused attention is quantised too. It is also the fastest recipe measured on both kinds
(docs/ingest-speed.md: ~2.2x fp32 with VNNI/AMX, ~1.4x on AVX2, where the int8 matmul itself
is only ~1.8x fp32). "portable" (per-call activation scale, FFN outputs in fp32) and "vnni"
(8-bit weights, attention in fp32: exact only with VNNI, and slower than uniform there) are the
earlier recipes, kept selectable.

The recipe is part of the cached graph's file name (`minilm.export.model_path`): a cache
shared between CPU kinds keeps one graph per recipe, and each CPU loads its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from citewise.errors import ConfigError

CPUINFO = Path("/proc/cpuinfo")
VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni", "avx512vnni", "avxvnni"})
RECIPE_ENV = "CITEWISE_INT8_RECIPE"  # a recipe's name, or `auto`: by this CPU's flags
DEFAULT_RECIPE = "uniform"  # the same graph and vectors on every CPU (docs/ingest-speed.md)


@dataclass(frozen=True, slots=True)
class Int8Recipe:
    name: str  # part of the cached graph's file name
    per_token: bool  # one activation scale per token (`minilm.per_token`), else per call
    reduce_range: bool  # 7-bit weights: exact where u8×s8 pairs are summed in int16
    # MatMul/Attention nodes left in fp32 (`minilm.graph` names them after their weights)
    fp32_nodes: tuple[str, ...]
    min_cosine: float  # worst cosine to the fp32 graph on the check texts, checked at export
    # ops ONNX Runtime's dynamic quantiser takes after the per-token rewrite (activations
    # quantised per call: one text per call by default, so per text)
    dynamic_ops: tuple[str, ...] = ("EmbedLayerNormalization",)


FFN_OUTPUTS = tuple(f"encoder.layer.{i}.output.dense" for i in range(6))
ATTENTION = tuple(f"encoder.layer.{i}.attention.context" for i in range(6))

RECIPES = {
    recipe.name: recipe
    for recipe in (
        Int8Recipe(
            "vnni", per_token=True, reduce_range=False, fp32_nodes=ATTENTION, min_cosine=0.99
        ),
        Int8Recipe(
            "portable", per_token=False, reduce_range=True, fp32_nodes=FFN_OUTPUTS, min_cosine=0.98
        ),
        Int8Recipe(
            "uniform",
            per_token=True,
            reduce_range=True,
            fp32_nodes=(),
            # the check texts' worst is the one-word "ok" (0.9855; portable: 0.9864); chunks
            # stay >= 0.99 (docs/ingest-speed.md)
            min_cosine=0.985,
            dynamic_ops=("EmbedLayerNormalization", "Attention"),
        ),
    )
}


def has_vnni(flags: Iterable[str]) -> bool:
    """Whether a CPU with these feature flags sums u8×s8 products straight into int32."""
    return bool(VNNI_FLAGS & {flag.lower() for flag in flags})


def choose_recipe(flags: Iterable[str]) -> Int8Recipe:
    """The fastest recipe measured for a CPU with these feature flags (as /proc/cpuinfo
    spells them): uniform on x86 with AVX2, VNNI or not (faster than vnni even with VNNI);
    portable where no AVX2 is listed (ARM, macOS, older x86: not measured)."""
    lowered = {flag.lower() for flag in flags}
    return RECIPES["uniform"] if "avx2" in lowered else RECIPES["portable"]


def cpu_flags(cpuinfo: Path = CPUINFO) -> frozenset[str]:
    """This CPU's feature flags (x86 Linux); empty where the OS lists none by that name
    (ARM's are "Features", macOS has no /proc)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return frozenset()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return frozenset(value.split())
    return frozenset()


def recipe_named(name: str) -> Int8Recipe:
    try:
        return RECIPES[name]
    except KeyError:
        valid = ", ".join(sorted(RECIPES))
        raise ConfigError(f"unknown int8 recipe {name!r}; valid: {valid}") from None


def this_cpus_recipe() -> Int8Recipe:
    """$CITEWISE_INT8_RECIPE: a recipe's name, or `auto` for the one this CPU's flags call
    for (`choose_recipe`); unset, the uniform recipe."""
    wanted = os.environ.get(RECIPE_ENV, "").strip() or DEFAULT_RECIPE
    return choose_recipe(cpu_flags()) if wanted == "auto" else recipe_named(wanted)
