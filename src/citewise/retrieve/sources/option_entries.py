"""A genre candidate source: the entries headed by a command-line option the query names.

A query naming an option ("What does -m do?") also ranks the entries headed by it
("-m <module-name>"): neither keyword nor vector search finds them, as their text rarely
repeats the option and keyword search has no token for "-m". Weighted above the other lists,
as such a heading is the option's own documentation (at weight 1 the Python docs answered
"the -m option" from trace's "-m, --missing" and abstained on "-i"; at 2 both from the
interpreter's entries). Only options: doing this for every identifier (`str.strip`) made dev
answers worse, since those entries rank well already. Needs a store with `HeadingLookups`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citewise.retrieve.sources.base import SourceQuery
from citewise.store.base import Store
from citewise.store.lookups import heading_entries
from citewise.text.identifiers import command_options
from citewise.types import Candidate, SearchMode


@dataclass(frozen=True, slots=True)
class OptionEntrySource:
    store: Store
    k: int = 10
    weight: float = 2.0
    name: str = "entries"

    def serves(self, mode: SearchMode) -> bool:
        return mode in ("hybrid", "keyword")

    def candidates(
        self, query: SourceQuery, found: Mapping[str, Sequence[Candidate]]
    ) -> list[Candidate]:
        """The entries headed by the options, ranked by how many of the other lists'
        candidates come from their document (ties share a rank): of several "-m" entries
        (the interpreter's, ast's, trace's), the one on the page search finds about the
        question is meant; their reading order says nothing."""
        options = command_options(query.text)
        if not options:
            return []
        seen: dict[int, None] = {}
        for option in options:
            for cand in heading_entries(self.store, option, query.flt, self.k):
                seen.setdefault(cand.chunk_id, None)
        entries = list(seen)[: self.k]
        if not entries:
            return []
        pool = {c.chunk_id for cands in found.values() for c in cands}
        docs = {r.chunk_id: r.doc_id for r in self.store.get_chunks([*entries, *pool])}
        per_doc = Counter(docs[c] for c in pool if c in docs)
        support = {c: per_doc[docs.get(c, -1)] for c in entries}
        levels = sorted(set(support.values()), reverse=True)
        return [Candidate(c, levels.index(support[c]) + 1, 1.0) for c in entries]
