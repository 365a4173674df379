"""The int8 recipe is chosen from the CPU's flags, and the cached graph is named by it."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.embed.minilm.export import model_path
from citewise.embed.minilm.graph import EXPORT_VERSION
from citewise.embed.minilm.recipe import (
    RECIPE_ENV,
    RECIPES,
    choose_recipe,
    cpu_flags,
    has_vnni,
    recipe_named,
    this_cpus_recipe,
)
from citewise.errors import ConfigError

XEON_SAPPHIRE = "fpu sse2 avx avx2 fma avx512f avx512bw avx512vl avx512_vnni avx_vnni amx_int8"
EPYC_ROME = "fpu sse2 avx avx2 fma bmi2 sha_ni"
SKYLAKE_SP = "fpu sse2 avx avx2 fma avx512f avx512bw avx512vl avx512cd"
ALDER_LAKE = "fpu sse2 avx avx2 fma avx_vnni"
OLD_X86 = "fpu sse2 sse4_2 avx"


@pytest.mark.parametrize(
    ("flags", "recipe"),
    [
        (XEON_SAPPHIRE, "uniform"),  # not vnni: uniform measured faster with VNNI/AMX too
        (ALDER_LAKE, "uniform"),  # AVX-VNNI without AVX-512
        (SKYLAKE_SP, "uniform"),  # AVX-512 without VNNI: 7-bit weights stay exact
        (EPYC_ROME, "uniform"),
        (OLD_X86, "portable"),  # no AVX2: not measured
        ("", "portable"),  # unknown CPU (ARM, macOS)
    ],
)
def test_auto_picks_the_fastest_recipe_measured_for_the_cpus_flags(flags: str, recipe: str) -> None:
    assert choose_recipe(flags.split()).name == recipe


@pytest.mark.parametrize(
    ("flags", "vnni"),
    [(XEON_SAPPHIRE, True), (ALDER_LAKE, True), (SKYLAKE_SP, False), (EPYC_ROME, False)],
)
def test_vnni_is_read_from_the_avx512_or_avx_flag(flags: str, vnni: bool) -> None:
    assert has_vnni(flags.upper().split()) is vnni


def test_only_the_vnni_recipe_uses_full_range_weights() -> None:
    assert not RECIPES["vnni"].reduce_range
    assert RECIPES["portable"].reduce_range
    assert RECIPES["uniform"].reduce_range  # exact on AVX2 too: one graph for every CPU


def test_the_uniform_recipe_quantises_every_matmul_and_the_attention() -> None:
    uniform = RECIPES["uniform"]
    assert uniform.per_token and uniform.fp32_nodes == ()
    assert "Attention" in uniform.dynamic_ops


def test_cpu_flags_are_read_from_the_flags_line(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nmodel name\t: Xeon\nflags\t\t: {ALDER_LAKE}\n\n")
    assert "avx_vnni" in cpu_flags(cpuinfo)
    assert cpu_flags(tmp_path / "missing") == frozenset()
    (tmp_path / "arm").write_text("processor\t: 0\nFeatures\t: fp asimd asimddp\n")
    assert choose_recipe(cpu_flags(tmp_path / "arm")).name == "portable"


def test_the_uniform_recipe_is_the_default_and_auto_follows_the_cpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(RECIPE_ENV, raising=False)
    assert this_cpus_recipe().name == "uniform"
    monkeypatch.setenv(RECIPE_ENV, "auto")
    assert this_cpus_recipe() == choose_recipe(cpu_flags())


def test_environment_overrides_the_cpus_recipe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RECIPE_ENV, "vnni")
    assert this_cpus_recipe().name == "vnni"
    monkeypatch.setenv(RECIPE_ENV, "portable")
    assert this_cpus_recipe().name == "portable"
    monkeypatch.setenv(RECIPE_ENV, "avx9000")
    with pytest.raises(ConfigError, match="unknown int8 recipe 'avx9000'"):
        this_cpus_recipe()


def test_the_cached_graphs_name_includes_the_recipe(tmp_path: Path) -> None:
    vnni = model_path(tmp_path, "int8", recipe_named("vnni"))
    portable = model_path(tmp_path, "int8", recipe_named("portable"))
    assert vnni.name == f"minilm-l6-v2-int8-vnni-v{EXPORT_VERSION}.onnx"
    assert portable.name == f"minilm-l6-v2-int8-portable-v{EXPORT_VERSION}.onnx"
    assert model_path(tmp_path, "fp32").name == f"minilm-l6-v2-fp32-v{EXPORT_VERSION}.onnx"
