"""What a question asks apart from whom it is about: its content words but its names. A
question about the parties' bonus target meets their salary clause by their names; the ask's
words that passage lacks ("bonus", "target") say what the documents were not found to state
(the closest passage's label), and a blank beside the asked attribute is the one asked for
(`placeholders`) (pure).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citewise.question.periods import name_words
from citewise.text.sentences import content_words, stem, topic_stem
from citewise.types import Passage

# words that say how the question asks, not what: "how many", "what kind of", "exactly"
_ASKING = frozenset({"many", "much", "kind", "sort", "way", "ways", "exactly", "specifically"})


def ask_terms(question: str) -> dict[str, str]:
    """The ask's terms (topic stems) with the question's own word for each, in order: its
    content words but the words it spells as names and the words that only say how it asks."""
    names = {p for w in name_words(question) for p in re.split(r"\W+", w.lower())}
    out: dict[str, str] = {}
    for w in content_words(question):
        if w not in names and w not in _ASKING:
            out.setdefault(topic_stem(w), w)
    return out


def held(passage: Passage) -> frozenset[str]:
    """The stems and topic stems of the passage's text, heading and title."""
    h = passage.hit
    words = content_words(f"{passage.context}\n{h.section}\n{h.title}")
    return frozenset({topic_stem(w) for w in words} | {stem(w) for w in words})


def unmentioned(question: str, passages: Sequence[Passage]) -> tuple[str, ...]:
    """The question's own words for the ask's terms none of `passages` holds, in order."""
    has = frozenset().union(*(held(p) for p in passages))
    return tuple(w for t, w in ask_terms(question).items() if t not in has)
