"""Candidate sources: each ranks chunks for a query its own way; `HybridRetriever` runs a
list of them and fuses their rankings with N-ary RRF.

A source sees the lists the sources before it produced (a genre source may rank its finds by
what general search found); it records sub-step spans in `query.trace` if it has any.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from citewise.types import Candidate, Hit, SearchFilter, SearchMode
from citewise.types.trace import Trace
from citewise.types.vectors import Vectors


@dataclass(frozen=True, slots=True)
class SourceQuery:
    text: str  # validated query
    k: int  # hits the caller wants
    mode: SearchMode
    flt: SearchFilter
    vector: Vectors | None = None  # the query's embedding, when the caller has it
    trace: Trace = field(default_factory=Trace)
    # what keyword search matches when not `text`: inside the documents a subject chose,
    # the ask without the subject's words (`inside_named.without_subject`)
    keywords: str | None = None

    @property
    def keyword_text(self) -> str:
        return self.text if self.keywords is None else self.keywords

    def depth(self, own: int) -> int:
        """A source's list depth: its own in a hybrid search, at least `k` when alone."""
        return own if self.mode == "hybrid" else max(self.k, own)


class CandidateSource(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def weight(self) -> float:
        """Its weight in the fusion."""
        ...

    def serves(self, mode: SearchMode) -> bool: ...

    def candidates(
        self, query: SourceQuery, found: Mapping[str, Sequence[Candidate]]
    ) -> list[Candidate]: ...


@runtime_checkable
class KeepingSource(Protocol):
    """A source whose candidates for some questions are each part of the answer (the graph's
    passages naming the parties of every agreement asked about): kept among the hits however
    they fuse, where fusion would rank a passage no other source found below the cut."""

    def kept(self, query: SourceQuery, candidates: Sequence[Candidate]) -> list[int]:
        """The chunk ids of its `candidates` to keep for `query` ([] for most queries)."""
        ...


def kept_in(hits: Sequence[Hit], keep: Sequence[int], k: int) -> list[Hit]:
    """The first `k` hits, the last places giving way to the kept ones below them (order
    otherwise kept; pure)."""
    wanted = set(keep)
    keepers = [h for h in hits if h.chunk_id in wanted][:k]
    others = [h for h in hits if h.chunk_id not in wanted][: k - len(keepers)]
    chosen = {h.chunk_id for h in (*keepers, *others)}
    return [h for h in hits if h.chunk_id in chosen]
