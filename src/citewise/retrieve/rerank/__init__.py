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
from dataclasses import dataclass

from citewise.embed.base import Embedder
from citewise.errors import ConfigError
from citewise.llm.base import LLM
from citewise.registry import FactoryRegistry
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


@dataclass(frozen=True, slots=True)
class RerankerParts:
    """What a reranker factory may use: the spec as given, its value after ':' (None when
    there is no ':'), and the collaborators `create_reranker` was passed."""

    spec: str
    arg: str | None
    embedder_factory: Callable[[], Embedder] | None
    llm: LLM | None
    vector_lookup: VectorLookup | None
    weights: RescoreWeights | None


def _none(p: RerankerParts) -> Reranker:
    if p.arg is not None:
        raise _unknown(p.spec)
    return NoRerank()


def _rescore(p: RerankerParts) -> Reranker:
    if p.arg is not None:
        raise _unknown(p.spec)
    return RescoreReranker(p.embedder_factory, weights=p.weights, vector_lookup=p.vector_lookup)


def _cross_encoder(p: RerankerParts) -> Reranker:
    if not p.arg:
        raise ConfigError(
            f"reranker {p.spec!r} needs a model path after ':'; valid forms: {_forms()}"
        )
    return CrossEncoderReranker(p.arg)


def _llm(p: RerankerParts) -> Reranker:
    if p.arg is not None:
        raise _unknown(p.spec)
    if p.llm is None:
        raise ConfigError(
            "the llm reranker needs an LLM: configure one (e.g. llm = 'ollama:llama3.1:8b')"
            " or choose another reranker; valid forms: " + _forms()
        )
    return LLMReranker(p.llm)


RERANKERS = FactoryRegistry[[RerankerParts], Reranker](
    "reranker",
    [("none", _none), ("rescore", _rescore), ("cross-encoder", _cross_encoder), ("llm", _llm)],
)
RERANKERS.accept_plugins("citewise.rerankers")  # factory(RerankerParts)


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
    kind = kind.strip().lower()
    if kind not in RERANKERS:
        raise _unknown(raw)
    parts = RerankerParts(
        raw, arg.strip() if sep else None, embedder_factory, llm, vector_lookup, weights
    )
    return RERANKERS.create(kind, parts)


def _unknown(spec: str) -> ConfigError:
    return ConfigError(f"unknown reranker {spec!r}; valid forms: {_forms()}")


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
