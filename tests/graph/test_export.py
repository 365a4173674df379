"""Export: networkx reads the GraphML back with every node, edge and attribute."""

from __future__ import annotations

import io
import json
import sqlite3

import networkx as nx
import pytest

from citewise.graph.export import export, to_json
from citewise.graph.extract import extract
from citewise.graph.model import ChunkText, GraphSnapshot
from citewise.graph.sqlite import SQLiteGraphStore
from graph.db import add_documents


@pytest.fixture
def snapshot(conn: sqlite3.Connection) -> GraphSnapshot:
    add_documents(conn, 1, 2)
    gs = SQLiteGraphStore.over(conn)
    gs.replace_document(
        1, "c", "Pump <manual> & notes", "pump-manual.pdf",
        extract([ChunkText(11, "The Valve Controller depends on the Sensor Bus Interface.")]),
    )  # fmt: skip
    gs.replace_document(
        2, "c", "Checklist", "check.txt",
        extract([ChunkText(21, "Read pump-manual.pdf: the Valve Controller uses the SBI bus.")]),
    )  # fmt: skip
    return gs.snapshot("c")


def test_networkx_reads_the_graphml_with_its_attributes(snapshot: GraphSnapshot) -> None:
    g = nx.read_graphml(io.BytesIO(export(snapshot, "graphml").encode("utf-8")))
    assert g.nodes["doc:1"]["label"] == "Pump <manual> & notes"
    assert g.nodes["doc:1"]["type"] == "document"
    assert g.nodes["entity:valve controller"]["kind"] == "name"
    between = [
        d
        for u, v, d in g.edges(data=True)
        if (u, v) == ("entity:valve controller", "entity:sensor bus interface")
    ]
    assert [(d["type"], d["kind"]) for d in between] == [("relation", "depends_on")]
    assert between[0]["weight"] > 0
    assert g.has_edge("doc:2", "doc:1")  # the checklist cites the manual's file name
    assert g.has_edge("doc:1", "entity:valve controller")  # mentions
    assert g.number_of_nodes() == len(snapshot.documents) + len(snapshot.entities)


def test_json_export_lists_nodes_and_edges_of_each_type(snapshot: GraphSnapshot) -> None:
    data = json.loads(export(snapshot, "json"))
    assert data == to_json(snapshot)
    types = {e["type"] for e in data["edges"]}
    assert types == {"relation", "mentions", "document_link"}
    nodes = {n["id"] for n in data["nodes"]}
    assert all(e["source"] in nodes and e["target"] in nodes for e in data["edges"])


def test_unknown_format_is_refused_with_the_valid_names(snapshot: GraphSnapshot) -> None:
    with pytest.raises(ValueError, match="graphml, json"):
        export(snapshot, "gexf")  # type: ignore[arg-type]
