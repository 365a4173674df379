"""How much of a question a passage speaks to: the share of the question's content words it
holds (pure; read by the relevance gate and the extractive outcome decision), plain or
weighted by how rare each word is among the passages retrieved."""

from __future__ import annotations

import math
from collections.abc import Sequence

from citewise.text.sentences import content_words, topic_stem
from citewise.types import Passage

_ASKING = frozenset({"many", "much", "kind", "sort", "way", "ways"})


def asked_stems(question: str) -> set[str]:
    """The question's content words (topic stems), less those that shape the question."""
    return {topic_stem(w) for w in content_words(question) if w not in _ASKING}


def held_stems(passage: Passage) -> set[str]:
    """The topic stems of the passage's text, heading and title."""
    h = passage.hit
    return {topic_stem(w) for w in content_words(f"{passage.context}\n{h.section}\n{h.title}")}


def coverage(question: str, passage: Passage) -> float:
    """The share of the question's content words (topic stems) the passage holds in its
    text, heading or title (pure)."""
    asked = asked_stems(question)
    if not asked:
        return 0.0
    return len(asked & held_stems(passage)) / len(asked)


def rare_coverage(question: str, passage: Passage, passages: Sequence[Passage]) -> float:
    """`coverage` with each word weighted by its inverse frequency among `passages`: a word
    that few passages hold (or none: "salary", "telephone") is what the question is
    specifically about, and counts most when missing."""
    asked = asked_stems(question)
    if not asked or not passages:
        return 0.0
    held = [held_stems(p) for p in passages]
    n = len(held)
    weight = {w: math.log(1 + n / (1 + sum(w in h for h in held))) for w in asked}
    mine = held_stems(passage)
    return sum(v for w, v in weight.items() if w in mine) / sum(weight.values())
