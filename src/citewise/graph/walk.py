"""Walking the graph from the entities a question names: depth ≤ 2, rare entities first.

A rare entity says more about a question than one every document mentions, and a typed edge
("depends on") more than co-occurrence, so both order the walk; each hop keeps a few edges per
entity it starts from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citewise.graph.crossrefs import COMMON_SHARE
from citewise.graph.model import WEAK_RELATION, Relation, entity_key
from citewise.graph.rules.tokens import COMMON_CAPITALISED, Token, tokenize
from citewise.graph.store import GraphStore
from citewise.text.english import is_english
from citewise.text.words import STOPWORDS

MAX_DEPTH = 2
FAN_OUT = 6
MAX_NGRAM = 5


@dataclass(frozen=True, slots=True)
class Step:
    """An edge the walk used: `hop` 1 leaves a named entity, 2 leaves one of its neighbours."""

    relation: Relation
    hop: int
    start: str  # the entity key the edge was reached from


def question_keys(question: str) -> list[str]:
    """Keys of every word run (up to five words) of a question that could name an entity. A
    single word counts only when its form marks a name (a capital inside the question, a digit,
    "_", "." or "-"): "Depends" in "the Depends field" may, "shared" in "shared libraries" not."""
    tokens = tokenize(question)
    keys: set[str] = set()
    for n in range(1, MAX_NGRAM + 1):
        for i in range(len(tokens) - n + 1):
            words = [t.text for t in tokens[i : i + n]]
            if n == 1 and not _marked(tokens[i]):
                continue
            if words[0].lower() in STOPWORDS or words[-1].lower() in STOPWORDS:
                continue  # "a package" is not a name for "package"
            key = entity_key(" ".join(words))
            if key and not re.fullmatch(r"\d+", key):
                keys.add(key)
    return sorted(keys)


def lower_words(question: str) -> list[str]:
    """The question's lone lower-case words outside everyday English ("debconf", "dpkg-divert"):
    names only if the collection knows them as technical names (see `named_entities`)."""
    return sorted(
        {
            entity_key(t.text)
            for t in tokenize(question)
            if t.text.islower() and len(t.text) >= 3 and t.text not in STOPWORDS
            and not is_english(t.text)
        }
    )  # fmt: skip


def _marked(tok: Token) -> bool:
    word = tok.text
    if word.lower() in STOPWORDS or word.lower() in COMMON_CAPITALISED:
        return False
    capital = any(c.isupper() for c in word) and not (tok.opens and word[1:].islower())
    return capital or any(c.isdigit() or c in "_.-" for c in word)


def named_entities(store: GraphStore, collection: str, question: str) -> list[str]:
    """Keys of the specific entities a question names, rarest first. A name inside a longer
    matched name ("pump" inside "pump assembly") is dropped, and so is an entity most of the
    collection's documents mention (it tells no document from another)."""
    matches = store.match_names(collection, question_keys(question))
    longest = [k for k in matches if not any(k != o and f" {k} " in f" {o} " for o in matches)]
    keys = sorted({e for k in longest for e in matches[k]})
    keys = sorted(
        {*keys, *_technical(store, collection, question), *_aliased(store, collection, keys)}
    )
    freq = store.frequencies(collection, keys)
    n_docs = store.document_count(collection)
    common = max(2.0, COMMON_SHARE * n_docs)
    specific = [k for k in keys if freq.get(k, 0) <= common]
    return sorted(specific, key=lambda k: (freq.get(k, 0), k))


# kinds a lone lower-case word of a question may name ("debconf" the program, not "cost")
TECHNICAL_KINDS = frozenset({"command", "software", "path", "option", "configuration", "code"})


def _technical(store: GraphStore, collection: str, question: str) -> list[str]:
    words = lower_words(question)
    matched = store.match_names(collection, words) if words else {}
    found = sorted({e for keys in matched.values() for e in keys})
    return [e.key for e in store.entities(collection, found) if e.kind in TECHNICAL_KINDS]


def _aliased(store: GraphStore, collection: str, keys: Sequence[str]) -> list[str]:
    """Entities named by the seeds' aliases in other documents: "FHS" where another document
    defines "Filesystem Hierarchy Standard (FHS)" names the standard there too."""
    aliases = sorted({entity_key(a) for e in store.entities(collection, keys) for a in e.aliases})
    matched = store.match_names(collection, [a for a in aliases if a]) if aliases else {}
    return sorted({e for found in matched.values() for e in found})


def walk(
    store: GraphStore,
    collection: str,
    seeds: Sequence[str],
    *,
    depth: int = MAX_DEPTH,
    fan_out: int = FAN_OUT,
    sources: Sequence[str] = (),
) -> list[Step]:
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"walk depth must be 1 or 2, not {depth}")
    steps: list[Step] = []
    used: set[tuple[str, str, str]] = set()
    visited = set(seeds)
    frontier = list(seeds)
    for hop in range(1, depth + 1):
        if not frontier:
            break
        edges = store.edges(collection, frontier, sources=sources)
        ends = {k for e in edges for k in (e.source, e.target)}
        freq = store.frequencies(collection, sorted(ends))
        next_frontier: list[str] = []
        for start in frontier:
            touching = [
                e for e in edges
                if start in (e.source, e.target) and (e.source, e.target, e.kind) not in used
            ]  # fmt: skip
            touching.sort(key=lambda e: _order(e, start, freq))
            for edge in touching[:fan_out]:
                used.add((edge.source, edge.target, edge.kind))
                steps.append(Step(edge, hop, start))
                other = edge.target if edge.source == start else edge.source
                if other not in visited:
                    visited.add(other)
                    next_frontier.append(other)
        frontier = next_frontier
    return steps


def _order(edge: Relation, start: str, freq: dict[str, int]) -> tuple[bool, int, float, str]:
    other = edge.target if edge.source == start else edge.source
    return (edge.kind == WEAK_RELATION, freq.get(other, 0), -edge.weight, other)
