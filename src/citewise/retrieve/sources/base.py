"""Candidate sources: each ranks chunks for a query its own way; `HybridRetriever` runs a
list of them and fuses their rankings with N-ary RRF.

A source sees the lists the sources before it produced (a genre source may rank its finds by
what general search found); it records sub-step spans in `query.trace` if it has any.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from citewise.types import Candidate, SearchFilter, SearchMode
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
