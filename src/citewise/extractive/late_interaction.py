"""Late interaction (ColBERT-style MaxSim) between the question and candidate sentences:
each of the question's content tokens takes its best cosine among a sentence's contextual
token vectors, and the sentence's score is their mean. A sentence's tokens are read in their
passage (a window of its neighbouring sentences, after the passage's heading path when
`heading` is set), so "this release" and "it" carry what they refer to.

Only the top passages' sentences are read (a few model calls of at most a window each);
other candidates get no score. Needs token states (`embed.minilm.tokens`): with another
embedder there are none and the scores are empty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from citewise.embed.base import Embedder
from citewise.embed.minilm.tokens import TokenEncoder, TokenStates, token_encoder
from citewise.extractive.candidates import CandidateSentence
from citewise.extractive.units import lead_in_end
from citewise.text.sentences import is_content_word
from citewise.types import Passage
from citewise.types.vectors import Vectors

WINDOW_TOKENS = 200  # a window of sentences read together stays within the model's 256
CHARS_PER_TOKEN = 4  # a window's size is judged from its characters (no tokenizer call)


@dataclass(frozen=True, slots=True)
class LateInteraction:
    """How MaxSim is read: from the first `passages` passages; `heading`: each window opens
    with its passage's heading path (context for the sentences, not matched itself)."""

    passages: int = 3
    heading: bool = True

    def scores(
        self, embedder: Embedder, question: str, cands: Sequence[CandidateSentence],
        split: Mapping[int, Sequence[str]],
    ) -> dict[int, float]:  # fmt: skip
        """MaxSim of each candidate (by its index in `cands`) of the top passages."""
        encoder = token_encoder(embedder)
        if encoder is None or not cands:
            return {}
        top = list(dict.fromkeys(c.passage.n for c in cands))[: self.passages]
        chosen = [i for i, c in enumerate(cands) if c.passage.n in top]
        if not chosen:
            return {}
        asked = question_tokens(encoder.encode([question])[0], question)
        if not len(asked):
            return {}
        passages = {c.passage.n: c.passage for c in cands if c.passage.n in top}
        states = {
            n: self._sentence_states(encoder, passages[n], split[n]) for n in passages
        }  # fmt: skip
        out = {}
        for i in chosen:
            c = cands[i]
            sentences = split[c.passage.n]
            rows = [states[c.passage.n][j] for j in range(c.index, lead_in_end(sentences, c.index))]
            vectors = np.vstack(rows) if rows else np.empty((0, asked.shape[1]), np.float32)
            out[i] = maxsim(asked, vectors)
        return out

    def _sentence_states(
        self, encoder: TokenEncoder, passage: Passage, sentences: Sequence[str]
    ) -> list[Vectors]:
        """Each sentence's contextual token vectors, read in windows of its passage."""
        prefix = f"{passage.hit.section}: " if self.heading and passage.hit.section else ""
        windows: list[list[int]] = [[]]
        size = len(prefix)
        for j, s in enumerate(sentences):
            if windows[-1] and size + len(s) > WINDOW_TOKENS * CHARS_PER_TOKEN:
                windows.append([])
                size = len(prefix)
            windows[-1].append(j)
            size += len(s) + 1
        out: list[Vectors] = [np.empty((0, 0), np.float32)] * len(sentences)
        texts, spans = [], []
        for window in windows:
            text, where = prefix, []
            for j in window:
                where.append((j, len(text), len(text) + len(sentences[j])))
                text += sentences[j] + " "
            texts.append(text)
            spans.append(where)
        for read, where in zip(encoder.encode(texts), spans, strict=True):
            for j, start, end in where:
                out[j] = read.within(start, end)
        return out


def question_tokens(read: TokenStates, question: str) -> Vectors:
    """The vectors of the question's tokens that belong to content words."""
    rows = []
    for i, (start, end) in enumerate(read.offsets):
        if not any(ch.isalnum() for ch in question[start:end]):
            continue  # punctuation
        word_start, word_end = start, end
        while word_start > 0 and question[word_start - 1].isalnum():
            word_start -= 1
        while word_end < len(question) and question[word_end].isalnum():
            word_end += 1
        if is_content_word(question[word_start:word_end].lower()):
            rows.append(i)
    return read.vectors[rows]


def maxsim(asked: Vectors, sentence: Vectors) -> float:
    """Mean over the question's tokens of their best cosine among the sentence's tokens."""
    if not len(asked) or not len(sentence):
        return 0.0
    return float(np.mean(np.max(asked @ sentence.T, axis=1)))


def centred_scores(
    late: LateInteraction | None,
    weight: float,
    embedder: Embedder,
    question: str,
    cands: Sequence[CandidateSentence],
    split: Mapping[int, list[str]],
) -> tuple[str, dict[tuple[int, int], float]]:
    """Each top-passage candidate's MaxSim less the mean, by (passage n, sentence index);
    nothing when late interaction is off."""
    if late is None or not weight:
        return ("", {})
    scores = late.scores(embedder, question, cands, split)
    if not scores:
        return ("", {})
    mean = sum(scores.values()) / len(scores)
    keys = {i: (cands[i].passage.n, cands[i].index) for i in scores}
    return (question, {keys[i]: v - mean for i, v in scores.items()})
