"""The relevance gate: one step that decides, from retrieval and rerank evidence, whether the
passages kept for a question can hold its answer. Both answer paths stand behind it: with an
LLM configured, a question that passes reaches the LLM with the top passages; without one,
the extractive answerer composes the answer.

Evidence, each on a 0–1 scale, over the first `look_at` passages:
- `dense`: the best cosine of the question's vector to a passage's stored vector (what the
  reranker's dense feature reads);
- `coverage`: the best share of the question's content words a passage holds in its text,
  heading or title (what keyword search matched on);
- `missing`: names the question is about (identifiers, versions) that no passage mentions:
  the passages are about something else, whatever their scores.

A question passes when nothing it names is missing and `dense + coverage_weight × coverage`
reaches `threshold`. A refusal is `firm` when no passage came back or a name the question is
about is missing; one on the score alone is not: without an LLM the extractive answerer then
decides from its own calibrated outcome evidence (`extractive/outcome.py`), so "not in the
documents" never overrides a passage that evidence would show. The weights are calibrated on
the tuning halves of several genres (benchmarks/gate_calibration.py), never on the extractive
answerer's sentence scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from citewise.question.analysis import Analysis, analyse
from citewise.question.coverage import coverage
from citewise.question.terms import mentions
from citewise.types import Passage
from citewise.types.vectors import Vectors

# words that shape a question rather than name what it is about

VectorLookup = Callable[[Sequence[int]], Mapping[int, Vectors]]


@dataclass(frozen=True, slots=True)
class GateOptions:
    threshold: float = 0.40
    coverage_weight: float = 0.3
    look_at: int = 3  # passages weighed: the answer comes from the first few


@dataclass(frozen=True, slots=True)
class GateEvidence:
    dense: float
    coverage: float
    missing: tuple[str, ...]

    def score(self, options: GateOptions) -> float:
        return self.dense + options.coverage_weight * self.coverage


@dataclass(frozen=True, slots=True)
class GateDecision:
    relevant: bool
    reason: str
    evidence: GateEvidence
    score: float
    firm: bool = False  # a refusal sentence evidence cannot overturn: nothing found, a name missing


class RelevanceGate:
    def __init__(
        self,
        vector_lookup: VectorLookup | None,
        options: GateOptions | None = None,
        *,
        code_names: bool = False,
    ) -> None:
        self._vector_lookup = vector_lookup
        self.options = options or GateOptions()
        self.code_names = code_names  # see `RulePack.code_names`

    def evidence(
        self,
        question: str,
        passages: Sequence[Passage],
        question_vector: Vectors | None,
        *,
        analysis: Analysis | None = None,
    ) -> GateEvidence:
        """`analysis`: `analyse(question)`, when the caller has it."""
        top = list(passages[: self.options.look_at])
        asked = analysis if analysis is not None and analysis.question == question else None
        required = (asked or analyse(question)).required(code_names=self.code_names)
        missing = tuple(t for t in required if not any(mentions(p, t) for p in passages))
        return GateEvidence(
            dense=self._dense(top, question_vector),
            coverage=max((coverage(question, p) for p in top), default=0.0),
            missing=missing,
        )

    def decide(
        self,
        question: str,
        passages: Sequence[Passage],
        question_vector: Vectors | None,
        *,
        analysis: Analysis | None = None,
    ) -> GateDecision:
        if not passages:
            return GateDecision(False, "no passages", GateEvidence(0.0, 0.0, ()), 0.0, firm=True)
        ev = self.evidence(question, passages, question_vector, analysis=analysis)
        score = ev.score(self.options)
        if ev.missing:
            reason = f"no passage mentions {', '.join(ev.missing)}"
            return GateDecision(False, reason, ev, score, firm=True)
        if score < self.options.threshold:
            reason = f"relevance {score:.2f} below {self.options.threshold:.2f}"
            return GateDecision(False, reason, ev, score)
        return GateDecision(True, f"relevance {score:.2f}", ev, score)

    def _dense(self, passages: Sequence[Passage], question_vector: Vectors | None) -> float:
        if question_vector is None or self._vector_lookup is None or not passages:
            return 0.0
        found = self._vector_lookup([p.hit.chunk_id for p in passages])
        if not found:
            return 0.0
        q = np.asarray(question_vector, dtype=np.float32).ravel()
        cosines = [float(np.asarray(v, dtype=np.float32).ravel() @ q) for v in found.values()]
        return max(0.0, max(cosines))
