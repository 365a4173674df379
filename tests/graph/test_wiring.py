"""The graph wired in: built at ingest, walked on the relationship route only, the source of
an answer's related documents, replaced and deleted with its documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.chat.query_router import QueryRouter, asks_relationship, asks_the_graph
from citewise.graph.model import entity_key
from citewise.retrieve.sources.base import SourceQuery
from citewise.retrieve.sources.graph import GraphSource
from citewise.store.base import GraphHolder
from citewise.types import SearchFilter
from graph.linked_corpus import LINKED_CORPUS
from support import write_corpus


@pytest.fixture
def assistant(linked_assistant: Assistant) -> Assistant:
    return linked_assistant


def _doc_ids(assistant: Assistant) -> dict[str, int]:
    return {d.source: d.doc_id for d in assistant.documents()}


@pytest.mark.parametrize(
    "question",
    [
        "What depends on the wal_level setting?",
        "Which documents discuss transaction ID wraparound?",
        "Which components depend on the controller firmware?",
        "What uses replication slots?",
        "What requires the copyright file?",
    ],
)
def test_one_sided_relationship_questions_take_the_relationship_route(question: str) -> None:
    assert QueryRouter().plan(question).kind == "relationship"
    assert asks_relationship(question)


@pytest.mark.parametrize(
    "question",
    [
        "Which of my documents discuss Chubby?",
        "Which papers mention Paxos?",
        "Who are the parties to the distributor agreement?",
    ],
)
def test_questions_only_the_graph_answers_whole_join_its_route(question: str) -> None:
    assert asks_relationship(question)
    assert asks_the_graph(question)
    assert QueryRouter().plan(question).kind == "relationship"


def test_a_question_about_who_signed_is_not_about_parties() -> None:
    assert not asks_the_graph("Who signed the form?")


@pytest.mark.parametrize(
    "question",
    [
        "What does autovacuum depend on to work?",
        "What uses the most memory?",
        "Which lock does CREATE INDEX take?",
        "What is the default port?",
    ],
)
def test_questions_about_one_thing_stay_off_the_relationship_route(question: str) -> None:
    assert QueryRouter().plan(question).kind != "relationship"
    assert not asks_relationship(question)


def test_ingest_stores_each_documents_graph_and_its_links(assistant: Assistant) -> None:
    store = inside(assistant).store
    assert isinstance(store, GraphHolder)
    graph = store.graph_store()
    ids = _doc_ids(assistant)
    links = graph.related_documents("default", ids["pump-manual.md"])
    linked = {link.other(ids["pump-manual.md"]): link for link in links}
    assert linked[ids["wiring-guide.md"]].kind == "explicit"
    assert linked[ids["valve-notes.md"]].kind == "implicit"
    assert graph.related_documents("default", ids["holidays.md"]) == []
    (firmware,) = graph.entities("default", [entity_key("FC-001-234")])
    assert set(firmware.doc_ids) == {ids[s] for s in ("pump-manual.md", "wiring-guide.md",
                                                      "valve-notes.md")}  # fmt: skip


def test_the_graph_joins_search_on_the_relationship_route_only(assistant: Assistant) -> None:
    walked = assistant.search("Which components depend on firmware FC-001-234?", k=5)
    assert "graph" in walked.timings_ms
    assert {"pump-manual.md", "valve-notes.md"} <= {h.source for h in walked.hits}
    (graph,) = [s for s in inside(assistant).retriever().sources if isinstance(s, GraphSource)]
    asked = [("What uses the Intake Filter?", True), ("Is the Intake Filter replaced?", False)]
    for question, walks in asked:
        query = SourceQuery(question, 5, "hybrid", SearchFilter())
        assert bool(graph.candidates(query, {})) is walks


def test_related_documents_of_an_answer_come_from_the_graph(assistant: Assistant) -> None:
    answer = assistant.ask("How often is the Intake Filter replaced?", session_id=None)
    assert [c.source for c in answer.citations][:1] == ["pump-manual.md"]
    # the wiring guide cites the manual (0.75); the valve notes' shared names are weaker
    assert answer.related_docs == ("wiring-guide.md",)


def test_reingesting_a_changed_document_replaces_its_graph(
    assistant: Assistant, tmp_path: Path
) -> None:
    changed = dict(LINKED_CORPUS)
    changed["wiring-guide.md"] = "# Wiring Guide\n\nConnect the Relay Board to port J4.\n"
    assistant.ingest([write_corpus(tmp_path / "docs", changed)])
    store = inside(assistant).store
    assert isinstance(store, GraphHolder)
    graph = store.graph_store()
    ids = _doc_ids(assistant)
    assert graph.related_documents("default", ids["wiring-guide.md"]) == []
    assert graph.match_names("default", ["relay board"]) == {"relay board": {"relay board"}}
    assert graph.document_count("default") == 4


def test_deleting_a_document_removes_it_from_the_graph(assistant: Assistant) -> None:
    store = inside(assistant).store
    assert isinstance(store, GraphHolder)
    ids = _doc_ids(assistant)
    assistant.delete("wiring-guide.md")
    graph = store.graph_store()
    assert graph.related_documents("default", ids["pump-manual.md"])[0].kind == "implicit"
    assert graph.document_count("default") == 3
