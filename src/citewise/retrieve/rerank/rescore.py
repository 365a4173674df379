"""The no-model default reranker: a linear rescoring of fused candidates with cheap features.

Features, each in [0, 1] for every candidate:
- `fused`: the first-stage (RRF) score divided by the best one;
- `dense`: cosine of the query vector to the chunk's vector (stored vectors, looked up by id;
  embedding the texts is the slow fallback), clamped at 0;
- `terms`: share of the query's content words present in the chunk text, each word weighted
  by how rare it is among the candidates (a word every candidate has says nothing);
- `identifiers`: share of the query's code-like tokens (`str.split`, `lru_cache`, `-X`,
  `PYTHONPATH`) found verbatim in the chunk, its section or title (0 when the query has none;
  an acronym found in other case, "mime-type" for MIME, counts half);
- `section`: the same rarity-weighted word share over the chunk's section path and title.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from citewise.embed.base import Embedder
from citewise.retrieve.query import query_terms
from citewise.retrieve.rerank.base import FallbackRecorder, reordered
from citewise.text.identifiers import query_identifiers, spaced_heading
from citewise.types import Hit
from citewise.types.vectors import Vectors

VectorLookup = Callable[[Sequence[int]], Mapping[int, Vectors]]
"""Stored vectors by chunk id (ids without a vector are left out)."""

_WORD = re.compile(r"[^\W_]+")
_ACRONYM = re.compile(r"[A-Z]{2,6}")  # MIME, JSON, ASCII: often written "mime-type", "json"


@dataclass(frozen=True, slots=True)
class RescoreWeights:
    """Weights of the linear combination (see the module docstring for the features).

    Defaults measured with benchmarks/experiments/rerank_dev.py: fused + dense 1:1 is the robust
    core (dense anywhere in 0.75–1.5 scores the same); identifier matches add a little.
    `terms` repeats what BM25 already ranked by and lowered every metric; `section` only
    helped on the dev corpus by demoting section-less duplicate files, and not otherwise:
    both are off by default."""

    fused: float = 1.0
    dense: float = 1.0
    terms: float = 0.0
    identifiers: float = 0.25
    section: float = 0.0

    def combine(self, f: Features) -> float:
        return (
            self.fused * f.fused
            + self.dense * f.dense
            + self.terms * f.terms
            + self.identifiers * f.identifiers
            + self.section * f.section
        )


@dataclass(frozen=True, slots=True)
class Features:
    fused: float
    dense: float
    terms: float
    identifiers: float
    section: float


def _identifier_score(identifier: str, haystack: str, section: str = "") -> float:
    """1 if the identifier occurs verbatim (or heads the section spelt with spaces), 0.5 if
    only its last dotted part does, or an acronym in other case ("mime-type" for MIME)."""
    if identifier in haystack or spaced_heading(identifier, section):
        return 1.0
    if _ACRONYM.fullmatch(identifier):
        word = rf"(?<!\w){re.escape(identifier.lower())}(?!\w)"
        return 0.5 if re.search(word, haystack.lower()) else 0.0
    last = identifier.rsplit(".", 1)[-1]
    if last != identifier and re.search(rf"(?<![\w]){re.escape(last)}(?![\w])", haystack):
        return 0.5
    return 0.0


def _rarity_weights(terms: Sequence[str], token_sets: Sequence[set[str]]) -> list[float]:
    """BM25-style idf of each term over the candidate set (always > 0)."""
    n = len(token_sets)
    weights = []
    for t in terms:
        df = sum(1 for s in token_sets if t in s)
        weights.append(math.log(1.0 + (n - df + 0.5) / (df + 0.5)))
    return weights


def _share(terms: Sequence[str], weights: Sequence[float], tokens: set[str]) -> float:
    total = sum(weights)
    if total <= 0:
        return 0.0
    return sum(w for t, w in zip(terms, weights, strict=True) if t in tokens) / total


def _tokens(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def compute_features(
    query: str,
    hits: Sequence[Hit],
    dense: Sequence[float] | None = None,
) -> list[Features]:
    """The features of each hit (pure). `dense`: the query–chunk cosines, if known."""
    if dense is not None and len(dense) != len(hits):
        raise ValueError(f"{len(hits)} hits but {len(dense)} cosines")
    terms = query_terms(query)
    idents = query_identifiers(query)
    text_tokens = [_tokens(h.text) for h in hits]
    head_tokens = [_tokens(f"{h.section} {h.title}") for h in hits]
    weights = _rarity_weights(terms, text_tokens)
    top = max((h.score for h in hits), default=0.0)
    out = []
    for i, h in enumerate(hits):
        haystack = f"{h.text}\n{h.section}\n{h.title}"
        ident = (
            sum(_identifier_score(x, haystack, h.section) for x in idents) / len(idents)
            if idents
            else 0.0
        )
        out.append(
            Features(
                fused=max(h.score, 0.0) / top if top > 0 else 0.0,
                dense=min(max(dense[i], 0.0), 1.0) if dense is not None else 0.0,
                terms=_share(terms, weights, text_tokens[i]),
                identifiers=ident,
                section=_share(terms, weights, head_tokens[i]),
            )
        )
    return out


class RescoreReranker(FallbackRecorder):
    """Implements `Reranker` with `RescoreWeights` over cheap features (no model call beyond
    one query embedding, and none at all when the caller passes `query_vector`).

    Chunk vectors come from `vectors=` (per call), else from `vector_lookup` (the store), else
    — slow, and recorded in `last_fallback` — by embedding the hit texts, if `embed_missing`.
    Without an embedder the dense feature is 0.
    """

    name = "rescore"
    select_threshold = 0.7  # scores are compressed (features of near-misses are close)

    def __init__(
        self,
        embedder_factory: Callable[[], Embedder] | None = None,
        *,
        weights: RescoreWeights | None = None,
        vector_lookup: VectorLookup | None = None,
        embed_missing: bool = True,
    ) -> None:
        super().__init__()
        self._embedder_factory = embedder_factory
        self.weights = weights or RescoreWeights()
        self._vector_lookup = vector_lookup
        self._embed_missing = embed_missing

    def rerank(
        self,
        query: str,
        hits: Sequence[Hit],
        k: int,
        *,
        query_vector: Vectors | None = None,
        vectors: Mapping[int, Vectors] | None = None,
    ) -> list[Hit]:
        feats = self.features(query, hits, query_vector=query_vector, vectors=vectors)
        return reordered(hits, [self.weights.combine(f) for f in feats], k)

    def features(
        self,
        query: str,
        hits: Sequence[Hit],
        *,
        query_vector: Vectors | None = None,
        vectors: Mapping[int, Vectors] | None = None,
    ) -> list[Features]:
        """The features `rerank` combines (also records `last_fallback`)."""
        self._record(None)
        dense = self._cosines(query, hits, query_vector, vectors) if hits else None
        return compute_features(query, hits, dense)

    def _cosines(
        self,
        query: str,
        hits: Sequence[Hit],
        query_vector: Vectors | None,
        vectors: Mapping[int, Vectors] | None,
    ) -> list[float] | None:
        if self.weights.dense == 0 or (query_vector is None and self._embedder_factory is None):
            return None
        found: dict[int, Vectors] = dict(vectors or {})
        missing = [h.chunk_id for h in hits if h.chunk_id not in found]
        if missing and self._vector_lookup is not None:
            found.update(self._vector_lookup(missing))
            missing = [h.chunk_id for h in hits if h.chunk_id not in found]
        if missing:
            if self._embedder_factory is None or not self._embed_missing:
                self._record(f"no stored vectors for {len(missing)} passage(s): dense feature off")
                return None
            wanted = set(missing)
            todo = [h for h in hits if h.chunk_id in wanted]
            embedded = self._embedder_factory().embed_documents([_embed_text(h) for h in todo])
            found.update({h.chunk_id: embedded[i] for i, h in enumerate(todo)})
            self._record(f"embedded {len(todo)} passage(s): no stored vectors")
        if query_vector is None:
            assert self._embedder_factory is not None  # checked on entry
            query_vector = self._embedder_factory().embed_query(query)
        matrix = np.stack([np.asarray(found[h.chunk_id], dtype=np.float32) for h in hits])
        return [float(x) for x in matrix @ np.asarray(query_vector, dtype=np.float32)]


def _embed_text(hit: Hit) -> str:
    """What the ingest pipeline embeds for a chunk: its heading line, then its text."""
    label = hit.section
    if not label:
        heading = hit.title
    elif hit.title and not label.startswith(hit.title):
        heading = f"{hit.title}: {label}"
    else:
        heading = label
    return f"{heading}\n{hit.text}" if heading else hit.text
