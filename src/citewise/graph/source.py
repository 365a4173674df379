"""The graph as a CandidateSource: the passages behind the edges a walk from the question's
entities used, for relationship questions ("what depends on X?", "how are A and B related?").

Ranked by the walk's order (edges from named entities first, rare entities and typed edges
before co-occurrence); a named entity without edges contributes the passages that mention it.
The collection scope and a source filter are applied inside the graph store's queries; a
category or tag filter, which the graph does not hold, makes the source step aside (recorded in
the query's timings) rather than return passages the filter would exclude.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citewise.graph.store import GraphStore
from citewise.graph.walk import FAN_OUT, MAX_DEPTH, named_entities, walk
from citewise.retrieve.sources.base import SourceQuery, ms_since
from citewise.types import Candidate, SearchMode


@dataclass(frozen=True, slots=True)
class GraphSource:
    graph: GraphStore
    k: int = 20
    weight: float = 1.0
    depth: int = MAX_DEPTH
    fan_out: int = FAN_OUT
    name: str = "graph"

    def serves(self, mode: SearchMode) -> bool:
        return mode == "hybrid"

    def candidates(
        self, query: SourceQuery, found: Mapping[str, Sequence[Candidate]]
    ) -> list[Candidate]:
        t = time.perf_counter()
        flt = query.flt
        if flt.category is not None or flt.tags:
            query.timings[f"{self.name}_skipped_filter"] = 0.0
            return []
        chunks = self.chunk_ids(query.text, flt.collection, flt.sources)
        limit = query.depth(self.k)
        query.timings[self.name] = ms_since(t)
        return [
            Candidate(chunk_id=c, rank=r, score=1.0 / r)
            for r, c in enumerate(chunks[:limit], start=1)
        ]

    def chunk_ids(self, question: str, collection: str, sources: Sequence[str] = ()) -> list[int]:
        """The passages behind the walk from the question's entities, in walk order."""
        seeds = named_entities(self.graph, collection, question)
        if not seeds:
            return []
        steps = walk(
            self.graph, collection, seeds, depth=self.depth, fan_out=self.fan_out, sources=sources
        )
        out: list[int] = []
        seen: set[int] = set()
        for step in steps:
            for chunk in step.relation.chunk_ids:
                if chunk not in seen:
                    seen.add(chunk)
                    out.append(chunk)
        linked = {k for s in steps for k in (s.relation.source, s.relation.target)}
        lonely = [k for k in seeds if k not in linked]
        if lonely and not sources:
            for entity in self.graph.entities(collection, lonely):
                out.extend(c for c in entity.chunk_ids if c not in seen)
                seen.update(entity.chunk_ids)
        return out
