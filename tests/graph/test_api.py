"""The graph's JSON endpoints through a real `citewise serve` that requires credentials:
each caller sees the graph of the collections it may read, no other."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import networkx as nx
import pytest

from api.live_server import LiveServer, serve
from citewise.assistant import Assistant
from citewise.auth.passwords import hash_password
from citewise.auth.store import AuthStore
from graph.linked_corpus import LINKED_CORPUS
from support import write_corpus

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("graph-api")
    with Assistant(data_dir=data, embedder="hashing") as assistant:
        assistant.ingest(
            [write_corpus(data.parent / "linked", LINKED_CORPUS)], collection="user-ann"
        )
    store = AuthStore(data / "citewise.db")
    store.create_user("ann", hash_password("ann-password"))
    store.create_user("bob", hash_password("bob-password"))
    store.close()
    with serve(data, {"CITEWISE_AUTH_REQUIRED": "true"}) as live:
        yield live


def _login(server: LiveServer, user: str) -> dict[str, str]:
    reply = httpx.post(
        f"{server.url}/auth/token", data={"username": user, "password": f"{user}-password"}
    )
    assert reply.status_code == 200, reply.text
    return {"Authorization": f"Bearer {reply.json()['access_token']}"}


def test_an_entity_with_its_relations_and_documents(server: LiveServer) -> None:
    reply = httpx.get(f"{server.url}/graph/entities/SBI", headers=_login(server, "ann"))
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["collection"] == "user-ann" and body["name"] == "Sensor Bus Interface"
    assert any(r["kind"] == "uses" and r["evidence"] for r in body["relations"])
    assert {d["source"] for d in body["documents"]} >= {"pump-manual.md", "valve-notes.md"}


def test_a_documents_related_documents_with_reason_and_strength(server: LiveServer) -> None:
    url = f"{server.url}/graph/documents/pump-manual.md/related"
    body = httpx.get(url, headers=_login(server, "ann")).json()
    related = {r["source"]: r for r in body["related"]}
    assert related["wiring-guide.md"]["kind"] == "explicit"
    assert 0 < related["valve-notes.md"]["strength"] < related["wiring-guide.md"]["strength"]


def test_the_export_is_graphml_networkx_reads(server: LiveServer, tmp_path: Path) -> None:
    reply = httpx.get(
        f"{server.url}/graph/export", params={"format": "graphml"}, headers=_login(server, "ann")
    )
    assert reply.headers["content-type"].startswith("application/graphml+xml")
    (tmp_path / "kb.graphml").write_bytes(reply.content)
    assert nx.read_graphml(tmp_path / "kb.graphml").number_of_nodes() > 4


def test_another_users_graph_is_out_of_reach(server: LiveServer) -> None:
    bob = _login(server, "bob")
    own = httpx.get(f"{server.url}/graph/entities/SBI", headers=bob)
    assert own.status_code == 404  # bob's collections hold no such entity
    for path in ("/graph/entities/SBI", "/graph/documents/pump-manual.md/related", "/graph/export"):
        asked = httpx.get(f"{server.url}{path}", params={"collection": "user-ann"}, headers=bob)
        assert asked.status_code == 403, path
    exported = httpx.get(f"{server.url}/graph/export", headers=bob).json()
    assert exported["nodes"] == []
    assert httpx.get(f"{server.url}/graph/export").status_code == 401


def test_a_documents_ego_view_is_capped_and_says_why_documents_are_linked(
    server: LiveServer,
) -> None:
    url = f"{server.url}/graph/ego?document=pump-manual.md&limit=4"
    body = httpx.get(url, headers=_login(server, "ann")).json()
    assert body["center"] == next(n["id"] for n in body["nodes"] if n["center"])
    assert len(body["nodes"]) <= 5 and body["hidden"] > 0  # the center and 4 neighbours
    cites = [e for e in body["edges"] if e["kind"] == "explicit"]
    assert cites and all(e["why"].startswith("cites") and e["reason"] for e in cites)


def test_an_entitys_ego_view_marks_weak_links_and_keeps_evidence(server: LiveServer) -> None:
    url = f"{server.url}/graph/ego?entity=Sensor%20Bus%20Interface"
    body = httpx.get(url, headers=_login(server, "ann")).json()
    kinds = {n["kind"] for n in body["nodes"]}
    assert "document" in kinds
    typed = [e for e in body["edges"] if e["kind"] == "uses"]
    assert typed and typed[0]["chunk_ids"] and typed[0]["weak"] is False


def test_an_ego_view_names_exactly_one_center(server: LiveServer) -> None:
    headers = _login(server, "ann")
    assert httpx.get(f"{server.url}/graph/ego", headers=headers).status_code == 400
    url = f"{server.url}/graph/ego?entity=Nothing%20Here"
    assert httpx.get(url, headers=headers).status_code == 404
