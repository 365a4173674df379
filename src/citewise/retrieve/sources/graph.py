"""The graph as a CandidateSource: the passages behind the edges a walk from the question's
entities used, for relationship questions ("what depends on X?", "how are A and B related?").

"Who are the parties to the X agreement(s)?" takes the passages of every such agreement's
party_to relations instead, kept among the hits however they fuse (`kept`).

Ranked by score: a passage earns for each walked edge it backs and for each of the question's
entities it names (see `chunk_ids`); ties keep the walk's order (rare entities first).
The collection scope and a source filter are applied inside the graph store's queries; a
category or tag filter, which the graph does not hold, makes the source step aside (recorded in
the query's timings) rather than return passages the filter would exclude.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from citewise.graph.agreements import (
    SOURCE_NAME,
    asked_agreements,
    parties_subject,
    party_passages,
)
from citewise.graph.model import WEAK_RELATION
from citewise.graph.store import GraphStore
from citewise.graph.walk import FAN_OUT, MAX_DEPTH, named_entities, walk
from citewise.retrieve.sources.base import SourceQuery
from citewise.types import Candidate, SearchMode

CO_OCCURRENCE_SCORE = 0.25
SECOND_HOP_SCORE = 0.3
MENTION_SCORE = 1.0


@dataclass(frozen=True, slots=True)
class GraphSource:
    graph: GraphStore
    k: int = 20
    # half a keyword or vector list: measured on the relations_* check sets (docs/graph.md),
    # a heavier graph list pushes passages the other sources agree on out of the top 5
    weight: float = 0.5
    depth: int = MAX_DEPTH
    fan_out: int = FAN_OUT
    new_documents: int = 2  # documents the other sources missed that it may bring in
    per_document: int = 1  # passages of one document in its list
    name: str = SOURCE_NAME
    # the questions it joins (the query router's relationship route); None: every question
    route: Callable[[str], bool] | None = None

    def serves(self, mode: SearchMode) -> bool:
        return mode == "hybrid"

    def candidates(
        self, query: SourceQuery, found: Mapping[str, Sequence[Candidate]]
    ) -> list[Candidate]:
        if self.route is not None and not self.route(query.text):
            return []
        t = time.perf_counter()
        flt = query.flt
        if flt.category is not None or flt.tags:
            query.trace.note(f"{self.name}_skipped_filter", 0.0)
            return []
        known = {c.chunk_id for listed in found.values() for c in listed}
        chunks = self.chunk_ids(query.text, flt.collection, flt.sources, known if found else None)
        limit = query.depth(self.k)
        query.trace.add_since(self.name, t)
        return [
            Candidate(chunk_id=c, rank=r, score=1.0 / r)
            for r, c in enumerate(chunks[:limit], start=1)
        ]

    def kept(self, query: SourceQuery, candidates: Sequence[Candidate]) -> list[int]:
        """On a parties question, the passages naming the parties of every agreement it names
        (`KeepingSource`): each is part of the answer, however it fuses."""
        if not candidates or parties_subject(query.text) is None:
            return []
        if not asked_agreements(self.graph, query.flt.collection, query.text):
            return []  # the walk's passages: ranked like any other source's
        return [c.chunk_id for c in candidates]

    def chunk_ids(
        self,
        question: str,
        collection: str,
        sources: Sequence[str] = (),
        known: Collection[int] | None = None,
    ) -> list[int]:
        """The passages behind the walk from the question's entities, best first: a passage
        scores for each edge it backs (typed over co-occurrence, first hop over second) and for
        each named entity it mentions, so one that names two of the question's entities leads.
        A parties question takes the passages naming the parties of every agreement it names
        (party_to evidence), all of them: each such agreement is part of the answer."""
        parties = party_passages(self.graph, collection, question, sources)
        if parties:
            return parties
        seeds = named_entities(self.graph, collection, question)
        if not seeds:
            return []
        steps = walk(
            self.graph, collection, seeds, depth=self.depth, fan_out=self.fan_out, sources=sources
        )
        # each kind of evidence counts once per passage: a passage listing many names must
        # not outscore one that states the relation
        evidence: dict[int, dict[tuple[bool, int], float]] = defaultdict(dict)
        order: dict[int, int] = {}
        for step in steps:
            weak = step.relation.kind == WEAK_RELATION
            weight = (CO_OCCURRENCE_SCORE if weak else 1.0) * (
                1.0 if step.hop == 1 else SECOND_HOP_SCORE
            )
            for chunk in step.relation.chunk_ids:
                evidence[chunk][(weak, step.hop)] = weight
                order.setdefault(chunk, len(order))
        score: dict[int, float] = {c: sum(kinds.values()) for c, kinds in evidence.items()}
        allowed = set(score) if sources else None
        for entity in self.graph.entities(collection, seeds):
            for chunk in entity.chunk_ids:
                if allowed is None or chunk in allowed:
                    score[chunk] = score.get(chunk, 0.0) + MENTION_SCORE
                    order.setdefault(chunk, len(order))
        ranked = sorted(score, key=lambda c: (-score[c], order[c]))
        doc_of = self.graph.chunk_documents(collection, ranked)
        if known is not None:
            ranked = expand_known(ranked, doc_of, known, self.new_documents)
        return by_document_turns(ranked, doc_of, self.per_document, score)


def expand_known(
    ranked: Sequence[int], doc_of: Mapping[int, int], known: Collection[int], new_documents: int
) -> list[int]:
    """The ranked passages other sources found too, and the best passage of each of the first
    `new_documents` documents they missed (document expansion)."""
    known_docs = {doc_of[c] for c in known if c in doc_of}
    added: set[int] = set()
    out: list[int] = []
    for chunk in ranked:
        doc = doc_of.get(chunk)
        if chunk in known:
            out.append(chunk)
        elif (
            doc is not None
            and doc not in known_docs
            and doc not in added
            and len(added) < new_documents
        ):
            added.add(doc)
            out.append(chunk)
    return out


def by_document_turns(
    ranked: Sequence[int],
    doc_of: Mapping[int, int],
    per_document: int,
    score: Mapping[int, float] | None = None,
) -> list[int]:
    """Each document's best passage first, then each one's second, up to `per_document` each;
    documents in the order of their passages' total score (the one that keeps naming the
    question's entities before one that names them once), else of their best passage. A
    relationship spans documents: one document's many passages must not crowd the others out
    (nor, fused, push out what the other sources found in other documents)."""
    turns: dict[int, list[int]] = defaultdict(list)
    total: dict[int, float] = defaultdict(float)
    for chunk in ranked:
        doc = doc_of.get(chunk, -chunk)
        turns[doc].append(chunk)
        total[doc] += score.get(chunk, 0.0) if score else 0.0
    docs = sorted(turns, key=lambda d: -total[d]) if score else list(turns)
    return [turns[d][depth] for depth in range(per_document) for d in docs if depth < len(turns[d])]
