"""The sentence the closest passage's window is centred on (pure): of every sentence of the
first passage, not only the prose candidates, the one whose window reads most like the answer.

The window shown as the closest passage holds a few sentences around one; when it misses the
sentence stating the fact, the reader is shown the right passage and still not told. Each
window (a sentence and its neighbours within `WINDOW_CHARS`, as `outcome.closest_passage`
grows it) is judged by its best sentence — cosine to the question, and whether it has the
form of the answer asked for (a number for "how long", a name for "who") — and by the
question's words it holds beyond those its heading path already says (IDF-weighted over the
passage, so a word every sentence repeats counts little). Judging windows rather than
sentences keeps a terse fact ("The default is eight megabytes (8MB).") with the sentence that
says what it is the default of; a short table row ("65534: User nobody.") can be the centre.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citewise.extractive.candidates import stems_of
from citewise.extractive.compose import ScoredSentence
from citewise.extractive.outcome import window_of
from citewise.extractive.scoring import type_fit
from citewise.extractive.units import is_code_line, is_navigation, lead_in_end
from citewise.question.analysis import Analysis
from citewise.text.sentences import content_words, topic_stem
from citewise.types import Passage

# words that shape a question rather than name what it asks about
_SHAPING = frozenset({"many", "much", "kind", "sort", "way", "ways", "happen", "happens"})


@dataclass(frozen=True, slots=True)
class WindowWeights:
    cosine: float = 0.7
    coverage: float = 0.3
    form: float = 0.1  # the sentence has the form of the asked answer (`scoring.type_fit`)


def asked_terms(a: Analysis, passage: Passage, sentences: Sequence[str]) -> dict[str, float]:
    """The question's topic stems its passage's heading path does not already say, each
    weighted by its IDF over the passage's sentences."""
    h = passage.hit
    heading = stems_of(f"{h.section}\n{h.title}")
    asked = dict.fromkeys(topic_stem(w) for w in content_words(a.question) if w not in _SHAPING)
    terms = [t for t in asked if t not in heading] or list(asked)
    held = [stems_of(s) for s in sentences]
    n = len(sentences)
    return {t: math.log(1 + n / (1 + sum(t in s for s in held))) for t in terms}


def coverage(terms: dict[str, float], text: str) -> float:
    """The weighted share of `terms` that `text` holds."""
    total = sum(terms.values())
    if not total:
        return 0.0
    held = stems_of(text)
    return sum(w for t, w in terms.items() if t in held) / total


def readable(sentences: Sequence[str]) -> list[int]:
    """The sentences a window may be centred on: not code, and holding a word."""
    return [
        i
        for i, s in enumerate(sentences)
        if not is_code_line(s) and content_words(s) and not is_navigation(s)
    ]


def unit_of(sentences: Sequence[str], i: int) -> str:
    """Sentence `i` with what it introduces (`units.lead_in_end`)."""
    return " ".join(sentences[i : lead_in_end(sentences, i)])


def centre(
    a: Analysis,
    passage: Passage,
    sentences: Sequence[str],
    cosines: Mapping[int, float],
    scored: Sequence[ScoredSentence],
    weights: WindowWeights | None = None,
) -> ScoredSentence | None:
    """The sentence of `passage` (split into `sentences`; `cosines`: each readable one's
    cosine to the question) the window is centred on, as a `ScoredSentence`; None when the
    passage has no candidate in `scored`."""
    w = weights or WindowWeights()
    mine = {x.index: x for x in scored if x.passage.n == passage.n}
    if not mine:
        return None
    terms = asked_terms(a, passage, sentences)
    best_fit, best = -math.inf, None
    own = {
        i: w.cosine * cosine + w.form * type_fit(a.answer_type, unit_of(sentences, i))
        for i, cosine in cosines.items()
    }
    for i in cosines:
        lo, hi = window_of(sentences, i)
        fit = max(own.get(j, -math.inf) for j in range(lo, hi + 1))
        fit += w.coverage * coverage(terms, " ".join(sentences[lo : hi + 1]))
        if fit > best_fit:
            best_fit, best = fit, i
    if best is None:
        return None
    chosen = mine.get(best)
    if chosen is not None:
        return chosen
    top = max(mine.values(), key=lambda x: x.score)
    unit = unit_of(sentences, best)
    return ScoredSentence(
        passage, best, unit, frozenset(stems_of(unit)), cosines[best], 0.0, top.score, top.prior
    )
