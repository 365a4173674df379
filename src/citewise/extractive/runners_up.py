"""Sentences beside the best one that an answer may add: close runners-up from its document."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.extractive.candidates import jaccard
from citewise.extractive.compose import ANAPHOR, ScoredSentence
from citewise.extractive.options import ExtractiveOptions


def adds(cand: ScoredSentence, picks: Sequence[ScoredSentence], near_duplicate: float) -> bool:
    """Whether `cand` says something `picks` do not: not one of them, nor a near copy."""
    same = any(p.passage.n == cand.passage.n and p.index == cand.index for p in picks)
    dup = any(jaccard(cand.stems, p.stems) >= near_duplicate for p in picks)
    return not same and not dup


def runners_up(
    scored: Sequence[ScoredSentence],
    best: ScoredSentence,
    opts: ExtractiveOptions,
    *,
    relative: bool = True,
) -> list[ScoredSentence]:
    """Close runners-up from the best sentence's document: they often hold the detail the
    best one leaves out, and citing one document keeps the answer precise. Without
    `relative`, any runner-up above the threshold is close enough."""
    floor = opts.threshold
    if relative:
        floor = max(floor, opts.relative_floor * best.score)
    # the sentences next to the best one read on from it: a lower bar, and an anaphor
    # right after it refers to it
    near = max(opts.threshold, opts.adjacent_floor * best.score) if relative else floor
    out: list[ScoredSentence] = []
    for cand in scored:
        if cand.score < min(floor, near) or 1 + len(out) >= opts.max_sentences:
            break
        beside = cand.passage.n == best.passage.n and abs(cand.index - best.index) == 1
        if cand.score < (near if beside else floor):
            continue
        after = beside and cand.index == best.index + 1
        if ANAPHOR.match(cand.text) and not after:
            continue  # out of its context, "This was the default …" misleads
        same_doc = cand.passage.hit.source == best.passage.hit.source
        if same_doc and adds(cand, [best, *out], opts.near_duplicate):
            out.append(cand)
    return out
