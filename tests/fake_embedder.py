"""A bag-of-words `Embedder` and an extractive answerer on it, for answer-stage tests."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from answer_factories import passage
from citewise.embed.base import Embedder, Vectors
from citewise.extractive.answerer import ExtractiveAnswerer
from citewise.extractive.options import ExtractiveOptions
from citewise.text.sentences import content_words, stem

VOCAB = sorted(
    {
        stem(w)
        for w in content_words(
            "default level warning logging events tracked configured message info "
            "dictionary order insertion key keys updating deletion preserve "
            "round rounding even half halfway integer value multiple "
            "tuple list immutable mutable sequence heterogeneous homogeneous "
            "typing override overload decorator method function final class "
            "pool connection request urllib size opener handler "
            "protocol pickle version python "
            "delete directory tree entire remove files shutil rmtree "
            "random choice element sequence empty raise indexerror maxbuffer killsignal "
            "glob weight pattern lists"
        )
    }
)


class BagOfWordsEmbedder:
    """A tiny `Embedder`: stemmed word counts over a fixed vocabulary, L2-normalised."""

    name = "bag-of-words"
    dim = len(VOCAB)
    max_tokens = 256

    def __init__(self) -> None:
        self.batches: list[int] = []

    def _vec(self, text: str) -> Vectors:
        v = np.zeros(self.dim, dtype=np.float32)
        for w in content_words(text):
            s = stem(w)
            if s in VOCAB:
                v[VOCAB.index(s)] += 1.0
        norm = float(np.linalg.norm(v))
        return v / norm if norm else v

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        self.batches.append(len(texts))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vec(t) for t in texts])

    def embed_query(self, text: str) -> Vectors:
        return self._vec(text)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


# Bag-of-words cosines run lower than MiniLM's, so these tests set their own threshold and
# leave out the content floor (a share of it); the calibrated defaults are exercised by the
# slow test with the real model.
FAKE_THRESHOLD = 0.3


def answerer(**options: object) -> tuple[ExtractiveAnswerer, BagOfWordsEmbedder]:
    emb = BagOfWordsEmbedder()
    assert isinstance(emb, Embedder)
    options.setdefault("threshold", FAKE_THRESHOLD)
    options.setdefault("content_share", 0.0)
    options.setdefault("terse_context_share", 0.0)  # on only in the tests of `answer.terse`
    return ExtractiveAnswerer(emb, ExtractiveOptions(**options)), emb  # type: ignore[arg-type]


def one_sentence_answer(
    question: str, text: str, section: str = "Guide > Intro", **options: object
) -> str:
    """The one-sentence answer to `question` from a single passage holding `text`."""
    a, _ = answerer(max_sentences=1, **options)
    return a.answer(question, [passage(1, text, section=section)]).text
