"""A terse sentence read with what comes before it (pure but for the one embedding call).

"The default is eight megabytes (8MB)." states the answer to "How much memory may a session
use for temporary tables by default?" but shares no word with it: what it is the default of
is said in the sentence before ("Sets the maximum amount of memory used for temporary buffers
within each database session.") or in its heading. So a short sentence is also embedded after
each of the few sentences before it, the passage's opening and its heading, and matches the
question as well as its best such reading does, discounted by `share`: it then competes on
what it states.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from citewise.embed.base import Embedder
from citewise.extractive.candidates import CandidateSentence, stems_of
from citewise.extractive.compose import ScoredSentence
from citewise.types import SECTION_SEPARATOR
from citewise.types.vectors import Vectors

LOOK_BACK = 2  # earlier sentences of its passage a terse sentence may lean on
MAX_READINGS = 48  # in-context readings embedded per question, first passages first


def contexts_of(cand: CandidateSentence, sentences: Sequence[str]) -> list[str]:
    """What a terse sentence may lean on: the few sentences before it in its passage, the
    passage's opening sentence, and its heading."""
    i = cand.index
    before = [sentences[j] for j in range(max(0, i - LOOK_BACK), i)]
    if i > LOOK_BACK:
        before.append(sentences[0])
    heading = cand.passage.hit.section.rsplit(SECTION_SEPARATOR, 1)[-1].strip()
    return [b for b in (*before, heading) if b]


def in_context(
    cands: Sequence[CandidateSentence],
    split: dict[int, list[str]],
    vectors: Vectors,
    question_vector: Vectors,
    embedder: Embedder,
    *,
    share: float,
    max_words: int,
    max_chars: int,
) -> Vectors:
    """`vectors` with each terse candidate's replaced by its best in-context reading's,
    scaled by `share`, where that reading matches `question_vector` better."""
    readings: list[tuple[int, str]] = [
        (k, f"{before} {c.text}"[-max_chars:])
        for k, c in enumerate(cands)
        if len(c.text.split()) <= max_words
        for before in contexts_of(c, split[c.passage.n])
    ][:MAX_READINGS]
    if not readings or share <= 0:
        return vectors
    read = embedder.embed_documents([text for _, text in readings])
    out = np.array(vectors, copy=True)
    best = np.asarray(vectors @ question_vector, dtype=np.float64)
    for (k, _), vector in zip(readings, read, strict=True):
        cos = share * float(vector @ question_vector)
        if cos > best[k]:
            best[k] = cos
            out[k] = share * vector
    return out


def names_before(x: ScoredSentence, split: dict[int, list[str]], stem: str, max_words: int) -> bool:
    """Whether a terse sentence's predecessor (or heading) names `stem`: "The default is
    eight megabytes (8MB)." gives the size of the memory the sentence before names."""
    if len(x.text.split()) > max_words:
        return False
    cand = CandidateSentence(x.passage, x.index, x.text, 0.0, x.stems)
    return any(stem in stems_of(before) for before in contexts_of(cand, split[x.passage.n]))
