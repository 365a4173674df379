"""Confidence of an answer: high / medium / low, or none when abstaining (pure).

Inputs are on a 0–1 scale: `support_scores` are the grounding strengths of the answer's
sentences (`GroundingReport.strengths`), `passage_scores` the relevance of each cited passage
to the question (the answerer's relevance score, not raw RRF fusion scores).

The Node pipeline's rule — high: ≥ 3 sources with mean relevance ≥ 0.5; medium: ≥ 2 with
mean ≥ 0.3; else low — counted every retrieved chunk. We count only cited passages (an
extractive answer cites 1–3), so a single very strong passage can also carry "high", and the
grounding check must agree: an answer with an unsupported sentence is never above "low".
"""

from __future__ import annotations

from collections.abc import Sequence

from citewise.types import Confidence

STRONG_PASSAGE = 0.5  # a passage this relevant counts as strong support
VERY_STRONG_PASSAGE = 0.7  # one passage this relevant is enough for "high"
CLEAR_SUPPORT = 0.75  # = grounding.SUPPORTED_AT: every sentence clearly supported
FAIR_SUPPORT = 0.5  # mean sentence support for "medium" (weakly supported counts 0.5)
FAIR_PASSAGE = 0.3  # the Node pipeline's medium relevance


def confidence(
    support_scores: Sequence[float], passage_scores: Sequence[float], grounded: bool
) -> Confidence:
    """`none` when nothing was answered (no supported sentence or no cited passage)."""
    if not support_scores or not passage_scores:
        return "none"
    if not grounded:
        return "low"
    strong = sum(1 for s in passage_scores if s >= STRONG_PASSAGE)
    best = max(passage_scores)
    mean_support = sum(support_scores) / len(support_scores)
    if min(support_scores) >= CLEAR_SUPPORT and (strong >= 2 or best >= VERY_STRONG_PASSAGE):
        return "high"
    if mean_support >= FAIR_SUPPORT and best >= FAIR_PASSAGE:
        return "medium"
    return "low"
