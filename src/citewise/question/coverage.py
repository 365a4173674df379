"""How much of a question a passage speaks to: the share of the question's content words it
holds (pure; read by the relevance gate and the extractive outcome decision)."""

from __future__ import annotations

from citewise.text.sentences import content_words, topic_stem
from citewise.types import Passage

_ASKING = frozenset({"many", "much", "kind", "sort", "way", "ways"})


def coverage(question: str, passage: Passage) -> float:
    """The share of the question's content words (topic stems) the passage holds in its
    text, heading or title (pure)."""
    asked = {topic_stem(w) for w in content_words(question) if w not in _ASKING}
    if not asked:
        return 0.0
    h = passage.hit
    held = {topic_stem(w) for w in content_words(f"{passage.context}\n{h.section}\n{h.title}")}
    return len(asked & held) / len(asked)
