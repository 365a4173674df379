"""A cheap look at the documents before a message is turned away as off-topic: the share of
its content words that the best few keyword hits hold (one BM25 query, no embedding)."""

from __future__ import annotations

from collections.abc import Callable

from citewise.store.base import Store
from citewise.text.sentences import content_words, topic_stem
from citewise.types import SearchFilter

PROBE_HITS = 5  # chunks looked at: a match further down is not what the message is about


def keyword_overlap(
    store: Callable[[], Store], flt: SearchFilter | None = None
) -> Callable[[str], float]:
    """The router's `doc_overlap`: for a message, the largest share of its content words one
    of the first keyword hits holds in its text, heading or title (0.0 when none).
    `store`: the store's factory, called on first use."""
    where = flt or SearchFilter()

    def overlap(text: str) -> float:
        words = content_words(text)
        asked = {topic_stem(w) for w in words}
        if not asked:
            return 0.0
        the_store = store()
        found = the_store.keyword_search(words, where, PROBE_HITS)
        records = the_store.get_chunks([c.chunk_id for c in found])
        best = 0.0
        for r in records:
            held = {topic_stem(w) for w in content_words(f"{r.text}\n{r.section}\n{r.title}")}
            best = max(best, len(asked & held) / len(asked))
        return best

    return overlap
