"""An ego view: one document or entity and its strongest neighbours, capped, as nodes and
edges a person can read. A document's neighbours are the documents linked to it (with why)
and the names it is most about (passages naming them × rarity); an entity's are the entities
it is related to (typed relations first, co-occurrence marked weak) and the documents naming
it. Names most of the collection's documents mention are left out (the stop-list learned from
document frequency), and so are section numbers. JSON-ready, for the web UI's graph panel."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.errors import NotFoundError
from citewise.graph.crossrefs import rarity
from citewise.graph.model import (
    LOCAL_KINDS,
    WEAK_RELATION,
    Entity,
    GraphDocument,
    Relation,
    entity_key,
)
from citewise.graph.store import GraphStore
from citewise.graph.views import Store, link_reason
from citewise.text.english import is_english

EGO_LIMIT = 24  # neighbours drawn at once: more are listed as "and N more"
DOCUMENT_SHARE = 3  # at most a third of a document's neighbours are other documents
# a name in more than this share of the documents is in the stop-list ("Company", "Agreement"
# in a folder of contracts, "Google" in a folder of Google's papers)
STOP_SHARE = 0.4
MIN_STOP_DOCUMENTS = 8  # below this many documents no name is "everywhere"


def common_keys(graph: GraphStore, collection: str, keys: Sequence[str]) -> set[str]:
    """The keys most of the collection's documents mention: too common to say anything."""
    n_docs = graph.document_count(collection)
    if n_docs < MIN_STOP_DOCUMENTS:
        return set()
    freq = graph.frequencies(collection, keys)
    return {k for k, df in freq.items() if df > STOP_SHARE * n_docs}


def document_ego(
    store: Store, graph: GraphStore, collection: str, source: str, *, limit: int = EGO_LIMIT
) -> dict[str, object]:
    doc = store.find_document(collection, source)
    if doc is None:
        raise NotFoundError(f"no document '{source}' in collection '{collection}'")
    center = f"doc:{doc.doc_id}"
    links = graph.related_documents(collection, doc.doc_id, limit=max(limit // DOCUMENT_SHARE, 1))
    total_links = len(graph.related_documents(collection, doc.doc_id, limit=1000))
    others = {
        d.doc_id: d for d in graph.documents(collection, [x.other(doc.doc_id) for x in links])
    }
    passages = graph.document_entities(collection, doc.doc_id)
    entities = _card_worthy(graph, collection, passages)
    n_docs = max(graph.document_count(collection), 1)
    freq = graph.frequencies(collection, [e.key for e in entities])

    def strength(e: Entity) -> float:
        return passages.get(e.key, 0) * (0.2 + rarity(freq.get(e.key, 1), n_docs))

    ranked = sorted(entities, key=lambda e: (-strength(e), e.key))
    shown = ranked[: max(limit - len(links), 0)]
    nodes = [_doc_node(center, doc.title, doc.source, center=True)]
    edges: list[dict[str, object]] = []
    for link in links:  # strongest first: a document linked twice is drawn once
        other = others.get(link.other(doc.doc_id))
        if other is None:
            continue
        node = f"doc:{other.doc_id}"
        if all(n["id"] != node for n in nodes):
            nodes.append(_doc_node(node, other.title, other.source))
        this = GraphDocument(doc.doc_id, doc.title, doc.source)
        why, reason = link_reason(graph, collection, link, this, other)
        edges.append(_edge(center, node, link.kind, link.strength, why=why, reason=reason))
    top = max((strength(e) for e in shown), default=1.0) or 1.0
    for e in shown:
        nodes.append(_entity_node(e))
        edges.append(_edge(center, f"entity:{e.key}", "mentions", round(strength(e) / top, 3)))
    edges.extend(_relations_among(graph, collection, [e.key for e in shown]))
    return {
        "center": center,
        "nodes": nodes,
        "edges": edges,
        "hidden": max(len(ranked) - len(shown), 0) + max(total_links - len(links), 0),
    }


def entity_ego(
    store: Store, graph: GraphStore, collection: str, name: str, *, limit: int = EGO_LIMIT
) -> dict[str, object]:
    key = entity_key(name)
    keys = sorted(graph.match_names(collection, [key]).get(key, set()))
    found = sorted(graph.entities(collection, keys), key=lambda e: (-len(e.doc_ids), e.key))
    if not found:
        raise NotFoundError(f"no entity named '{name}' in collection '{collection}'")
    first = found[0]
    center = f"entity:{first.key}"
    relations = sorted(
        (r for r in graph.edges(collection, keys) if r.source != r.target),
        key=lambda r: (r.kind == WEAK_RELATION, -r.weight, r.source, r.target),
    )
    neighbour_keys: list[str] = []
    for r in relations:
        other = r.target if r.source in keys else r.source
        if other not in neighbour_keys and other not in keys:
            neighbour_keys.append(other)
    hidden_common = common_keys(graph, collection, neighbour_keys)
    neighbours = {
        e.key: e
        for e in graph.entities(collection, neighbour_keys)
        if e.kind not in LOCAL_KINDS and e.key not in hidden_common
    }
    doc_ids = sorted({d for e in found for d in e.doc_ids})
    docs = graph.documents(collection, doc_ids)[: max(limit // DOCUMENT_SHARE, 1)]
    shown_keys = [k for k in neighbour_keys if k in neighbours][: max(limit - len(docs), 0)]
    nodes = [_entity_node(first, center=True)]
    nodes.extend(_entity_node(neighbours[k]) for k in shown_keys)
    nodes.extend(_doc_node(f"doc:{d.doc_id}", d.title, d.source) for d in docs)
    edges = [
        _relation_edge(r, center if r.source in keys else f"entity:{r.source}",
                       center if r.target in keys else f"entity:{r.target}")
        for r in relations
        if (r.target if r.source in keys else r.source) in shown_keys
    ]  # fmt: skip
    edges.extend(_edge(f"doc:{d.doc_id}", center, "mentions", 1.0) for d in docs)
    hidden = len(neighbours) - len(shown_keys) + len(doc_ids) - len(docs)
    return {"center": center, "nodes": nodes, "edges": edges, "hidden": max(hidden, 0)}


def worth_a_card(e: Entity) -> bool:
    """Not a place in a document ("Section 3"), nor a defined term that is one everyday word
    ("Software", "Person", "cost": the document's shorthand, not a thing of its own), nor a
    concept (the object of "X is a consensus algorithm": a description, kept as a relation's
    end, not a name)."""
    lone_word = e.kind == "term" and " " not in e.name and is_english(e.name)
    return e.kind not in LOCAL_KINDS and e.kind != "concept" and not lone_word


def _card_worthy(graph: GraphStore, collection: str, passages: dict[str, int]) -> list[Entity]:
    common = common_keys(graph, collection, sorted(passages))
    return [
        e
        for e in graph.entities(collection, sorted(passages))
        if worth_a_card(e) and e.key not in common
    ]


def _relations_among(
    graph: GraphStore, collection: str, keys: list[str]
) -> list[dict[str, object]]:
    """The typed relations between the entities shown (context for the picture)."""
    wanted = set(keys)
    return [
        _relation_edge(r, f"entity:{r.source}", f"entity:{r.target}")
        for r in graph.edges(collection, keys)
        if r.source in wanted and r.target in wanted and r.kind != WEAK_RELATION
    ]


def _doc_node(node: str, title: str, source: str, *, center: bool = False) -> dict[str, object]:
    label = source.replace("\\", "/").rsplit("/", 1)[-1]
    return {"id": node, "type": "document", "kind": "document", "label": label, "title": title,
            "source": source, "center": center}  # fmt: skip


def _entity_node(e: Entity, *, center: bool = False) -> dict[str, object]:
    return {"id": f"entity:{e.key}", "type": "entity", "kind": e.kind, "label": e.name,
            "key": e.key, "documents": len(e.doc_ids), "center": center}  # fmt: skip


def _relation_edge(r: Relation, source: str, target: str) -> dict[str, object]:
    return _edge(source, target, r.kind, r.weight, chunk_ids=list(r.chunk_ids[:3]),
                 weak=r.kind == WEAK_RELATION)  # fmt: skip


def _edge(source: str, target: str, kind: str, weight: float, **extra: object) -> dict[str, object]:
    return {"source": source, "target": target, "kind": kind, "weight": weight, **extra}
