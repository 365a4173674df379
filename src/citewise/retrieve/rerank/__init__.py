"""The rerank stage: reorder fused candidates, then keep the passages worth showing.

Backends (`create_reranker(spec)`):
- "none": the fused order, cut to k;
- "rescore" (default, no model): a linear rescoring with cheap features
  (`rescore.RescoreReranker`);
- "cross-encoder:PATH": a local sentence-transformers CrossEncoder;
- "llm": the configured LLM scores the passages in one JSON call, keeping the incoming order
  (and saying so in `last_fallback`) when it fails.

`select_passages` then applies the adaptive k: a relative score threshold and a cap (the
question kind's, from `answer.policy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from citewise.embed.base import Embedder
from citewise.errors import ConfigError
from citewise.llm.base import LLM
from citewise.retrieve.rerank.base import FUSED, FallbackRecorder, NoRerank, Reranker, reordered
from citewise.retrieve.rerank.models import CrossEncoderReranker, LLMReranker, parse_scores
from citewise.retrieve.rerank.rescore import (
    Features,
    RescoreReranker,
    RescoreWeights,
    VectorLookup,
    compute_features,
)
from citewise.types import Hit

__all__ = [
    "DEFAULT_RERANKER",
    "FUSED",
    "VALID_SPECS",
    "CrossEncoderReranker",
    "FallbackRecorder",
    "Features",
    "LLMReranker",
    "NoRerank",
    "Reranker",
    "RescoreReranker",
    "RescoreWeights",
    "VectorLookup",
    "compute_features",
    "create_reranker",
    "parse_scores",
    "reordered",
    "select_passages",
]

DEFAULT_RERANKER = "rescore"
VALID_SPECS = ("none", "rescore", "cross-encoder:<path to a local model>", "llm")


def create_reranker(
    spec: str | None,
    *,
    embedder_factory: Callable[[], Embedder] | None,
    llm: LLM | None = None,
    vector_lookup: VectorLookup | None = None,
    weights: RescoreWeights | None = None,
) -> Reranker:
    """The reranker named by `spec` (None or "" → the default, "rescore").
    `vector_lookup` lets "rescore" read stored chunk vectors instead of embedding texts."""
    raw = (spec or DEFAULT_RERANKER).strip()
    kind, sep, arg = raw.partition(":")
    kind, arg = kind.strip().lower(), arg.strip()
    if kind == "none" and not sep:
        return NoRerank()
    if kind == "rescore" and not sep:
        return RescoreReranker(embedder_factory, weights=weights, vector_lookup=vector_lookup)
    if kind == "cross-encoder":
        if not arg:
            raise ConfigError(
                f"reranker {raw!r} needs a model path after ':'; valid forms: {_forms()}"
            )
        return CrossEncoderReranker(arg)
    if kind == "llm" and not sep:
        if llm is None:
            raise ConfigError(
                "the llm reranker needs an LLM: configure one (e.g. llm = 'ollama:llama3.1:8b')"
                " or choose another reranker; valid forms: " + _forms()
            )
        return LLMReranker(llm)
    raise ConfigError(f"unknown reranker {raw!r}; valid forms: {_forms()}")


def _forms() -> str:
    return ", ".join(VALID_SPECS)


def select_passages(
    hits: Sequence[Hit], cap: int, threshold: float, min_keep: int = 1
) -> list[Hit]:
    """The adaptive k: hits (best first, scores non-negative as every reranker gives them)
    whose score is at least `threshold` × the top score, at most `cap` (the question kind's,
    see `answer.policy`), and at least `min_keep` of them whatever their scores. Order and
    ranks are kept. Pass the reranker's `select_threshold` unless you measured better."""
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be within [0, 1], got {threshold}")
    cap = max(cap, min_keep)
    top = max((h.score for h in hits), default=0.0)
    keep: list[Hit] = []
    for h in hits:
        if len(keep) >= cap:
            break
        if len(keep) < min_keep or (top > 0 and h.score >= threshold * top):
            keep.append(h)
    return keep
