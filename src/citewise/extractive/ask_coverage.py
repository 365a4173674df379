"""What a question asks apart from whom it is about: its content words but the words it spells
as names. A question about the parties' plan date meets every sentence that names them; the
ask's words say which sentence is about what is asked (`placeholders`: a blank in the plan's
sentence is not filled by a date in the Agreement's) (pure).
"""

from __future__ import annotations

import re

from citewise.question.periods import name_words
from citewise.text.sentences import content_words, topic_stem

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
