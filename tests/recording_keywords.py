"""A keyword source that records the words it searched, for tests of what retrieval asks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from citewise.retrieve.sources.base import SourceQuery
from citewise.retrieve.sources.keyword import KeywordSource
from citewise.store.base import Store
from citewise.types import Candidate


@dataclass
class RecordingKeywords:
    """Keyword search that records the words it matched."""

    store: Store
    name: str = "keyword"
    weight: float = 1.0
    seen: list[str] = field(default_factory=list)

    def serves(self, mode: str) -> bool:
        return True

    def candidates(
        self, query: SourceQuery, found: Mapping[str, Sequence[Candidate]]
    ) -> list[Candidate]:
        self.seen.append(query.keyword_text)
        return KeywordSource(self.store).candidates(query, found)
