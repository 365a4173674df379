"""What a user looks at: an entity with its aliases, relations (each with the passages behind
it) and documents; a document's linked documents with the reason and strength of each link.
JSON-ready dicts, shared by `citewise graph` and the HTTP API."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath
from typing import Protocol

from citewise.errors import NotFoundError
from citewise.graph.model import (
    WEAK_RELATION,
    DocumentLink,
    GraphDocument,
    Relation,
    entity_key,
)
from citewise.graph.store import GraphStore
from citewise.text.sentences import split_sentences
from citewise.types import ChunkRecord, DocumentInfo

RELATIONS_SHOWN = 40
PASSAGES_PER_RELATION = 2
QUOTE_CHARS = 280


class Store(Protocol):
    """What the views read of a document store (the store package sits above the graph)."""

    def get_chunks(
        self, chunk_ids: Sequence[int], *, with_parents: bool = False
    ) -> list[ChunkRecord]: ...

    def find_document(self, collection: str, source: str) -> DocumentInfo | None: ...


def entity_view(store: Store, graph: GraphStore, collection: str, name: str) -> dict[str, object]:
    """The entity `name` names (its own name or an alias), or NotFoundError."""
    keys = sorted(graph.match_names(collection, [entity_key(name)]).get(entity_key(name), set()))
    # an alias may name an entity of its own in another document: the most mentioned first
    entities = sorted(graph.entities(collection, keys), key=lambda e: (-len(e.doc_ids), e.key))
    if not entities:
        raise NotFoundError(f"no entity named '{name}' in collection '{collection}'")
    edges = _ordered(graph.edges(collection, keys))[:RELATIONS_SHOWN]
    others = {k for r in edges for k in (r.source, r.target)} - set(keys)
    names = {e.key: e.name for e in graph.entities(collection, sorted(others))}
    names.update({e.key: e.name for e in entities})
    wanted = [c for r in edges for c in r.chunk_ids[:PASSAGES_PER_RELATION]]
    chunks = {c.chunk_id: c for c in store.get_chunks(sorted(set(wanted)))}
    doc_ids = sorted({d for e in entities for d in e.doc_ids})
    first = entities[0]
    return {
        "name": first.name,
        "key": first.key,
        "kind": first.kind,
        "aliases": sorted({a for e in entities for a in (*e.aliases, e.name)} - {first.name}),
        "relations": [
            {
                "source": names.get(r.source, r.source),
                "target": names.get(r.target, r.target),
                "kind": r.kind,
                "weight": r.weight,
                "evidence": [
                    {
                        "chunk_id": c,
                        "source": chunks[c].source,
                        "section": chunks[c].section,
                        "quote": evidence_sentence(
                            chunks[c].text,
                            [names.get(r.source, r.source), names.get(r.target, r.target)],
                        ),
                    }
                    for c in r.chunk_ids[:PASSAGES_PER_RELATION]
                    if c in chunks
                ],
            }
            for r in edges
        ],
        "documents": [
            {"doc_id": d.doc_id, "source": d.source, "title": d.title}
            for d in graph.documents(collection, doc_ids)
        ],
    }


def related_view(
    store: Store, graph: GraphStore, collection: str, source: str, *, limit: int = 20
) -> dict[str, object]:
    """The documents linked to `source`, strongest first, each with why: it cites or is cited
    by it (explicit), or they share rare names (implicit); NotFoundError when not stored."""
    doc = store.find_document(collection, source)
    if doc is None:
        raise NotFoundError(f"no document '{source}' in collection '{collection}'")
    links = graph.related_documents(collection, doc.doc_id, limit=limit)
    docs = {d.doc_id: d for d in graph.documents(collection, [x.other(doc.doc_id) for x in links])}
    related: list[dict[str, object]] = []
    for link in links:
        other = docs.get(link.other(doc.doc_id))
        if other is None:
            continue
        this = GraphDocument(doc.doc_id, doc.title, doc.source)
        why, reason = link_reason(graph, collection, link, this, other)
        related.append(
            {
                "source": other.source,
                "title": other.title,
                "kind": link.kind,
                "direction": _direction(link.documents, link.kind, doc.doc_id),
                "strength": round(link.strength, 3),
                "why": why,
                "reason": reason,
                "evidence": list(link.evidence),
            }
        )
    return {"source": doc.source, "title": doc.title, "related": related}


DEFINED_KINDS = frozenset({"term", "agreement"})


def link_reason(
    graph: GraphStore,
    collection: str,
    link: DocumentLink,
    this: GraphDocument,
    other: GraphDocument,
) -> tuple[str, str]:
    """Why two documents are linked, as a code and a sentence: one cites the other by title,
    file name or a section's name, or they name the same parties, defined terms or rare
    names."""
    if link.kind == "explicit":
        cited = other if link.documents[0] == this.doc_id else this
        whom = "it" if cited is other else "this document"
        hits = set(link.evidence)
        if entity_key(cited.title) in hits:
            return "cites_title", f'cites {whom} by its title "{cited.title}"'
        file_name = PurePath(cited.source.replace("\\", "/")).name
        if hits & {entity_key(file_name), entity_key(PurePath(file_name).stem)}:
            return "cites_file", f"cites {whom} by its file name {file_name}"
        return "cites_name", f"cites {whom} as " + ", ".join(f'"{e}"' for e in link.evidence)
    named = {e.key: e for e in graph.entities(collection, list(link.evidence))}
    parties = [named[k].name for k in link.evidence if k in named and named[k].kind == "party"]
    if parties:
        return "same_parties", "shares the parties " + ", ".join(parties)
    defined = [
        named[k].name for k in link.evidence if k in named and named[k].kind in DEFINED_KINDS
    ]
    if defined:
        return "shared_defined", "shares the defined terms " + ", ".join(f'"{d}"' for d in defined)
    shown = [named[k].name if k in named else k for k in link.evidence]
    return "shared_names", "shares " + ", ".join(shown)


def _direction(documents: tuple[int, int], kind: str, doc_id: int) -> str:
    if kind == "implicit":
        return "shared"
    return "cites" if documents[0] == doc_id else "cited_by"


def _ordered(edges: Sequence[Relation]) -> list[Relation]:
    """Typed relations before co-occurrence, then by how many passages state them."""
    return sorted(edges, key=lambda r: (r.kind == WEAK_RELATION, -len(r.chunk_ids), r.kind))


def evidence_sentence(text: str, names: Sequence[str]) -> str:
    """The sentence of a passage that states a relation: the first naming both ends, else the
    first naming either, else the passage's start."""
    sentences = split_sentences(text)
    lowered = [n.lower() for n in names if n]
    for wanted in (len(lowered), 1):
        for sentence in sentences:
            low = sentence.lower()
            if sum(n in low for n in lowered) >= wanted:
                return sentence[:QUOTE_CHARS]
    return text[:QUOTE_CHARS]
