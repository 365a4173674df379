"""A collection's graph as GraphML (Gephi, yEd, networkx) or JSON.

Nodes are documents (`doc:<id>`) and entities (`entity:<key>`); edges are relations between
entities, `mentions` from a document to each entity it names, and document links.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Literal

from citewise.graph.model import GraphSnapshot

ExportFormat = Literal["graphml", "json"]
FORMATS: tuple[ExportFormat, ...] = ("graphml", "json")
_NS = "http://graphml.graphdrawing.org/xmlns"

# (id, applies to, name, GraphML type)
_KEYS = (
    ("label", "node", "label", "string"),
    ("node_type", "node", "type", "string"),
    ("kind", "node", "kind", "string"),
    ("aliases", "node", "aliases", "string"),
    ("source", "node", "source", "string"),
    ("chunks", "node", "chunk_ids", "string"),
    ("edge_type", "edge", "type", "string"),
    ("relation", "edge", "kind", "string"),
    ("weight", "edge", "weight", "double"),
    ("evidence", "edge", "evidence", "string"),
)


def doc_node(doc_id: int) -> str:
    return f"doc:{doc_id}"


def entity_node(key: str) -> str:
    return f"entity:{key}"


def to_json(snapshot: GraphSnapshot) -> dict[str, object]:
    nodes: list[dict[str, object]] = [
        {"id": doc_node(d.doc_id), "type": "document", "label": d.title, "source": d.source}
        for d in snapshot.documents
    ]
    nodes += [
        {
            "id": entity_node(e.key), "type": "entity", "label": e.name, "kind": e.kind,
            "aliases": list(e.aliases), "chunk_ids": list(e.chunk_ids),
            "documents": [doc_node(d) for d in e.doc_ids],
        }
        for e in snapshot.entities
    ]  # fmt: skip
    edges: list[dict[str, object]] = [
        {
            "source": entity_node(r.source), "target": entity_node(r.target), "type": "relation",
            "kind": r.kind, "weight": r.weight, "chunk_ids": list(r.chunk_ids),
        }
        for r in snapshot.relations
    ]  # fmt: skip
    edges += [
        {"source": doc_node(d), "target": entity_node(e.key), "type": "mentions", "weight": 1.0}
        for e in snapshot.entities
        for d in e.doc_ids
    ]
    edges += [
        {
            "source": doc_node(k.documents[0]), "target": doc_node(k.documents[1]),
            "type": "document_link", "kind": k.kind, "weight": k.strength,
            "evidence": list(k.evidence),
        }
        for k in snapshot.links
    ]  # fmt: skip
    return {"directed": True, "nodes": nodes, "edges": edges}


def to_graphml(snapshot: GraphSnapshot) -> str:
    ET.register_namespace("", _NS)
    root = ET.Element(f"{{{_NS}}}graphml")
    for key_id, target, name, kind in _KEYS:
        ET.SubElement(
            root, f"{{{_NS}}}key",
            {"id": key_id, "for": target, "attr.name": name, "attr.type": kind},
        )  # fmt: skip
    graph = ET.SubElement(root, f"{{{_NS}}}graph", {"id": "citewise", "edgedefault": "directed"})
    data = to_json(snapshot)
    for node in _dicts(data["nodes"]):
        el = ET.SubElement(graph, f"{{{_NS}}}node", {"id": str(node["id"])})
        _data(el, "label", node.get("label"))
        _data(el, "node_type", node.get("type"))
        _data(el, "kind", node.get("kind"))
        _data(el, "aliases", node.get("aliases"))
        _data(el, "source", node.get("source"))
        _data(el, "chunks", node.get("chunk_ids"))
    for n, edge in enumerate(_dicts(data["edges"])):
        el = ET.SubElement(
            graph, f"{{{_NS}}}edge",
            {"id": f"e{n}", "source": str(edge["source"]), "target": str(edge["target"])},
        )  # fmt: skip
        _data(el, "edge_type", edge.get("type"))
        _data(el, "relation", edge.get("kind"))
        _data(el, "weight", edge.get("weight"))
        _data(el, "evidence", edge.get("evidence") or edge.get("chunk_ids"))
    return ET.tostring(root, encoding="unicode", xml_declaration=True)


def export(snapshot: GraphSnapshot, fmt: ExportFormat) -> str:
    if fmt == "graphml":
        return to_graphml(snapshot)
    if fmt == "json":
        return json.dumps(to_json(snapshot), ensure_ascii=False, indent=1)
    raise ValueError(f"unknown graph export format {fmt!r}; choose one of {', '.join(FORMATS)}")


def _dicts(value: object) -> list[dict[str, object]]:
    assert isinstance(value, list)
    return value


def _data(el: ET.Element, key: str, value: object) -> None:
    if value is None or value == []:
        return
    text = " ".join(str(v) for v in value) if isinstance(value, list) else str(value)
    ET.SubElement(el, f"{{{_NS}}}data", {"key": key}).text = text
