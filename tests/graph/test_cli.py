"""`citewise graph show|related|export` over a corpus whose documents cite each other."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.cli import app
from citewise.graph.model import entity_key
from citewise.store.base import GraphHolder
from graph.linked_corpus import LINKED_CORPUS
from support import write_corpus

runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "hashing")
    env = {"CITEWISE_DATA_DIR": str(tmp_path / "data")}
    docs = write_corpus(tmp_path / "docs", LINKED_CORPUS)
    result = runner.invoke(app, ["ingest", str(docs), "--json"], env=env)
    assert result.exit_code == 0, result.output
    return env


def _json(args: list[str], env: dict[str, str], code: int = 0) -> dict[str, object]:
    result = runner.invoke(app, [*args, "--json"], env=env)
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_graph_show_gives_aliases_relations_with_evidence_and_documents(
    env: dict[str, str],
) -> None:
    view = _json(["graph", "show", "SBI"], env)
    assert view["name"] == "Sensor Bus Interface" and "SBI" in view["aliases"]  # type: ignore[operator]
    uses = [r for r in view["relations"] if r["kind"] == "uses"]  # type: ignore[attr-defined]
    assert uses[0]["source"] == "Pump Controller"
    assert uses[0]["evidence"][0]["source"] == "pump-manual.md"
    assert "Sensor Bus Interface" in uses[0]["evidence"][0]["quote"]
    sources = {d["source"] for d in view["documents"]}  # type: ignore[attr-defined]
    assert sources == {"pump-manual.md", "wiring-guide.md", "valve-notes.md"}
    text = runner.invoke(app, ["graph", "show", "SBI"], env=env).stdout
    assert text.startswith("Sensor Bus Interface (")
    assert "aliases: " in text and "Pump Controller —uses→ Sensor Bus Interface" in text
    assert "documents:\n" in text and "  pump-manual.md  " in text


def test_graph_show_of_an_unknown_name_is_a_clear_error(env: dict[str, str]) -> None:
    out = _json(["graph", "show", "Flux Capacitor"], env, code=4)
    assert "Flux Capacitor" in str(out["error"])


def test_graph_related_lists_linked_documents_with_reason_and_strength(
    env: dict[str, str],
) -> None:
    view = _json(["graph", "related", "pump-manual.md"], env)
    related = {r["source"]: r for r in view["related"]}  # type: ignore[attr-defined]
    assert related["wiring-guide.md"]["direction"] == "cited_by"
    assert related["wiring-guide.md"]["strength"] > related["valve-notes.md"]["strength"]
    assert related["valve-notes.md"]["reason"].startswith("shares ")
    assert "holidays.md" not in related
    text = runner.invoke(app, ["graph", "related", "pump-manual.md"], env=env)
    assert "wiring-guide.md" in text.stdout


def test_graph_export_graphml_loads_in_networkx(env: dict[str, str], tmp_path: Path) -> None:
    result = runner.invoke(app, ["graph", "export", "--format", "graphml"], env=env)
    assert result.exit_code == 0, result.output
    path = tmp_path / "kb.graphml"
    path.write_text(result.stdout, encoding="utf-8")
    g = nx.read_graphml(path)
    assert {"entity:" + entity_key("FC-001-234"), "entity:sensor bus interface"} <= set(g.nodes)
    assert any(d.get("kind") == "explicit" for _, _, d in g.edges(data=True))
    as_json = json.loads(
        runner.invoke(app, ["graph", "export", "--format", "json"], env=env).stdout
    )
    assert len(as_json["nodes"]) == g.number_of_nodes()


def test_graph_build_fills_in_documents_stored_without_a_graph(env: dict[str, str]) -> None:
    assert _json(["graph", "build"], env) == {"built": 0, "documents": 4}
    with Assistant(data_dir=Path(env["CITEWISE_DATA_DIR"]), embedder="hashing") as assistant:
        store = inside(assistant).store
        assert isinstance(store, GraphHolder)
        store.graph_store().delete_document(assistant.document("valve-notes.md").doc_id)
    assert _json(["graph", "build"], env) == {"built": 1, "documents": 4}
    named = _json(["graph", "show", "Valve Driver"], env)["documents"]
    assert [d["source"] for d in named] == ["valve-notes.md"]  # type: ignore[attr-defined]
    assert _json(["graph", "build", "--all"], env) == {"built": 4, "documents": 4}
