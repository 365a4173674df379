"""A cheap look at the documents before a message is turned away as off-topic: the share of
its content words that the best few keyword hits hold (one BM25 query, no embedding), read
through the conversation's port to the documents (`retrieve.passages.PassageReader`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from citewise.text.sentences import content_words, topic_stem
from citewise.types import ChunkRecord, SearchFilter

PROBE_HITS = 5  # chunks looked at: a match further down is not what the message is about


class KeywordReader(Protocol):
    """The part of the answer flow's port the probe reads (`PassageReader.keyword_chunks`)."""

    def keyword_chunks(
        self, words: Sequence[str], flt: SearchFilter, k: int
    ) -> list[ChunkRecord]: ...


def keyword_overlap(
    reader: Callable[[], KeywordReader], flt: SearchFilter | None = None
) -> Callable[[str], float]:
    """The router's `doc_overlap`: for a message, the largest share of its content words one
    of the first keyword hits holds in its text, heading or title (0.0 when none).
    `reader`: the port's factory, called on first use (the store opens lazily)."""
    where = flt or SearchFilter()

    def overlap(text: str) -> float:
        words = content_words(text)
        asked = {topic_stem(w) for w in words}
        if not asked:
            return 0.0
        best = 0.0
        for r in reader().keyword_chunks(words, where, PROBE_HITS):
            held = {topic_stem(w) for w in content_words(f"{r.text}\n{r.section}\n{r.title}")}
            best = max(best, len(asked & held) / len(asked))
        return best

    return overlap
