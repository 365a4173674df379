"""create_embedder: specs, options, errors, lazy imports; the hashing backend; export errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from citewise.embed import VALID_SPECS, create_embedder
from citewise.embed._util import estimate_tokens
from citewise.embed.hashing import HashingEmbedder
from citewise.errors import ConfigError, EmbedderError


@pytest.mark.parametrize("spec", ["bert", "minilm:int4", "st:", "ollama", "openai:", "hash"])
def test_unknown_spec_lists_the_valid_forms(spec: str) -> None:
    with pytest.raises(ConfigError) as info:
        create_embedder(spec)
    for form in VALID_SPECS:
        assert form in str(info.value)


def test_unknown_option_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="colour"):
        create_embedder("hashing", colour="blue")


def test_options_set_to_none_are_ignored() -> None:
    embedder = create_embedder("hashing", base_url=None, api_key=None, cache_dir=None, threads=None)
    assert embedder.name == "hashing-384"


def test_st_spec_with_a_missing_directory_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a directory"):
        create_embedder(f"st:{tmp_path / 'nope'}")


def test_importing_citewise_embed_loads_no_heavy_runtime() -> None:
    code = (
        "import sys, citewise.embed as e; e.create_embedder('hashing');"
        "print(sorted(m for m in ('onnxruntime', 'torch', 'sentence_transformers', 'httpx')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_hashing_is_deterministic_and_rewards_shared_words() -> None:
    a, b = HashingEmbedder(), HashingEmbedder()
    texts = ["rotate the log files", "rotating log files nightly", "snapshot the database"]
    va, vb = a.embed_documents(texts), b.embed_documents(texts)
    np.testing.assert_array_equal(va, vb)
    assert float(va[0] @ va[1]) > float(va[0] @ va[2])


def test_hashing_dimension_is_configurable() -> None:
    assert HashingEmbedder(dim=64).embed_query("x").shape == (64,)
    with pytest.raises(ConfigError):
        HashingEmbedder(dim=2)


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [("", 0, 0), ("hello", 1, 1), ("Hello, world!", 4, 4), ("internationalization", 3, 5)],
)
def test_token_estimate_is_wordpiece_like(text: str, low: int, high: int) -> None:
    assert low <= estimate_tokens(text) <= high


def test_graph_build_without_onnx_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from citewise.embed.minilm import graph as minilm_graph

    monkeypatch.setitem(sys.modules, "onnx", None)
    with pytest.raises(EmbedderError, match=r"needs the onnx package: pip install onnx"):
        minilm_graph.build_fp32_graph(Path("/nonexistent"), Path("/nonexistent"))


def test_model_cache_honours_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citewise.embed.minilm.export import ensure_onnx_model, model_path
    from citewise.embed.minilm.graph import EXPORT_VERSION
    from citewise.embed.minilm.recipe import this_cpus_recipe

    monkeypatch.setenv("CITEWISE_MODEL_CACHE", str(tmp_path))
    cached = tmp_path / f"minilm-l6-v2-int8-{this_cpus_recipe().name}-v{EXPORT_VERSION}.onnx"
    cached.write_bytes(b"already exported")
    assert model_path() == cached
    assert ensure_onnx_model() == cached  # present: no export
