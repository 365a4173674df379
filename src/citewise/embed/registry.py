"""`create_embedder(spec)`: the one place that maps an embedder spec to a backend.

Specs: "minilm" (the bundled all-MiniLM-L6-v2 on ONNX Runtime, int8, the default;
"minilm:fp32" for the unquantised graph, same vector space), "minilm-l3" (its distilled
3-layer student, faster, a vector space of its own; "minilm-l3:fp32"), "hashing",
"st:<path to a local sentence-transformers model>", "ollama:<model>", "openai:<model>".
Heavy dependencies (onnxruntime, torch, sentence-transformers) are imported by the backend
only when it is created, so importing citewise stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citewise.embed.base import Embedder
from citewise.errors import ConfigError
from citewise.registry import FactoryRegistry

VALID_SPECS = (
    "minilm",
    "minilm:fp32",
    "minilm-l3",
    "minilm-l3:fp32",
    "hashing",
    "st:<path to a sentence-transformers model>",
    "ollama:<model>",
    "openai:<model>",
)
_OPTIONS = {"base_url", "api_key", "cache_dir", "threads", "max_tokens", "batch_size", "timeout"}


def _unknown(spec: str) -> ConfigError:
    return ConfigError(f"unknown embedder {spec!r}; valid forms: {', '.join(VALID_SPECS)}")


def _split(spec: str) -> tuple[str, str]:
    kind, sep, arg = spec.strip().partition(":")
    kind = kind.lower()
    if not sep:
        return kind, ""
    if not arg.strip():
        raise ConfigError(
            f"embedder {spec!r} needs a value after ':'; valid forms: " + ", ".join(VALID_SPECS)
        )
    return kind, arg.strip()


def _minilm(spec: str, arg: str, opts: dict[str, Any], student: bool = False) -> Embedder:
    if arg not in ("", "int8", "fp32"):
        raise _unknown(spec)
    from citewise.embed.minilm.runtime import MiniLMEmbedder

    cache = Path(opts["cache_dir"]) if "cache_dir" in opts else None
    return MiniLMEmbedder(
        cache_dir=cache, threads=opts.get("threads"), variant=arg or "int8", student=student
    )


def _minilm_student(spec: str, arg: str, opts: dict[str, Any]) -> Embedder:
    return _minilm(spec, arg, opts, student=True)


def _hashing(spec: str, arg: str, opts: dict[str, Any]) -> Embedder:
    if arg:
        raise _unknown(spec)
    from citewise.embed.hashing import HashingEmbedder

    return HashingEmbedder()


def _sentence_transformers(spec: str, arg: str, opts: dict[str, Any]) -> Embedder:
    if not arg:
        raise _unknown(spec)
    from citewise.embed.sentence_transformers import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(Path(arg).expanduser(), threads=opts.get("threads"))


def _http_options(opts: dict[str, Any]) -> dict[str, Any]:
    return {k: opts[k] for k in ("base_url", "max_tokens", "batch_size", "timeout") if k in opts}


def _ollama(spec: str, model: str, opts: dict[str, Any]) -> Embedder:
    if not model:
        raise _unknown(spec)
    from citewise.embed.http.ollama import OllamaEmbedder

    return OllamaEmbedder(model, **_http_options(opts))


def _openai(spec: str, model: str, opts: dict[str, Any]) -> Embedder:
    if not model:
        raise _unknown(spec)
    from citewise.embed.http.openai import OpenAIEmbedder

    return OpenAIEmbedder(model, api_key=opts.get("api_key"), **_http_options(opts))


# kind → factory(spec, the value after ':', options); a value of the wrong form is unknown
EMBEDDERS = FactoryRegistry[[str, str, dict[str, Any]], Embedder](
    "embedder",
    [
        ("minilm", _minilm),
        ("minilm-l3", _minilm_student),
        ("hashing", _hashing),
        ("st", _sentence_transformers),
        ("ollama", _ollama),
        ("openai", _openai),
    ],
)
EMBEDDERS.accept_plugins("citewise.embedders")  # factory(spec, value after ':', options)


def create_embedder(spec: str = "minilm", **options: Any) -> Embedder:
    """The embedder named by `spec`. Options: `base_url`, `api_key` (HTTP backends),
    `cache_dir` (where the exported ONNX model lives), `threads` (CPU backends; default one
    per core), `max_tokens`, `batch_size`, `timeout`. Options that are None are ignored, and
    options a backend does not use are ignored, so callers can pass all settings."""
    unknown = set(options) - _OPTIONS
    if unknown:
        raise ConfigError(f"unknown embedder option(s): {', '.join(sorted(unknown))}")
    opts = {k: v for k, v in options.items() if v is not None}
    kind, arg = _split(spec)
    if kind not in EMBEDDERS:
        raise _unknown(spec)
    return EMBEDDERS.create(kind, spec, arg, opts)
