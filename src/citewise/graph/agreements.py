"""Who the parties to an agreement are, as the graph knows them: "Who are the parties to the
consulting agreement(s)?" names a kind of agreement; every agreement of the collection the
graph read under that name (one entity, merged over documents) and the passages its party_to
relations were read from (the preambles naming the parties), one document after another.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citewise.graph.model import entity_key
from citewise.graph.store import GraphStore
from citewise.graph.walk import question_keys

# the name the graph's candidate source ranks under (`Hit.retriever_ranks`): an answer built
# from the graph's passages tells them by it
SOURCE_NAME = "graph"
_PARTIES_TO = re.compile(
    r"\bwho\s+(?:are|is|were|was)\s+(?:the\s+)?part(?:y|ies)\s+(?:to|of|in)\s+(?P<subject>.+?)"
    r"[?.!\s]*$",
    re.I,
)
_PLURAL = re.compile(r"\b(agreement|contract|lease|licen[cs]e|deed)s\b", re.I)


def parties_subject(question: str) -> str | None:
    """ "the consulting agreements" of "Who are the parties to the consulting agreements?";
    None for any other question."""
    m = _PARTIES_TO.search(" ".join(question.split()))
    return m["subject"] if m else None


def asked_agreements(store: GraphStore, collection: str, question: str) -> list[str]:
    """The keys of the agreements a parties question names, longest name only: "the exclusive
    software license agreement" is not also every "license agreement"."""
    subject = parties_subject(question)
    if subject is None:
        return []
    singular = _PLURAL.sub(lambda m: m[1], subject)
    keys = sorted({*question_keys(subject), *question_keys(singular), entity_key(singular)})
    matches = store.match_names(collection, [k for k in keys if k])
    found = sorted({e for named in matches.values() for e in named})
    agreements = [e.key for e in store.entities(collection, found) if e.kind == "agreement"]
    return [k for k in agreements if not any(k != o and f" {k} " in f" {o} " for o in agreements)]


def party_passages(
    store: GraphStore, collection: str, question: str, sources: Sequence[str] = ()
) -> list[int]:
    """The passages stating who the parties to the asked agreements are, each document's
    first (its preamble) first, then its others; [] when the question names none the graph
    knows."""
    agreements = set(asked_agreements(store, collection, question))
    if not agreements:
        return []
    chunks = sorted(
        {
            c
            for r in store.edges(collection, sorted(agreements), sources=sources)
            if r.kind == "party_to" and r.target in agreements
            for c in r.chunk_ids
        }
    )
    doc_of = store.chunk_documents(collection, chunks)
    firsts: dict[int, int] = {}
    for c in chunks:
        firsts.setdefault(doc_of.get(c, -c), c)
    first = set(firsts.values())
    return [*firsts.values(), *(c for c in chunks if c not in first)]
