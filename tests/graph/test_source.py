"""The graph CandidateSource over an in-memory graph: passages behind the walked edges."""

from __future__ import annotations

import sqlite3

import pytest

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText
from citewise.graph.source import GraphSource
from citewise.graph.sqlite import SQLiteGraphStore
from citewise.graph.walk import named_entities, question_keys, walk
from citewise.retrieve.sources.base import SourceQuery
from citewise.types import SearchFilter
from graph.db import add_documents

MANUAL = {
    101: "The Controller Firmware depends on the Sensor Bus Interface (SBI).",
    102: "The Valve Controller requires the Controller Firmware.",
    103: "The Display Panel uses the Controller Firmware for its menus.",
    104: "The pump housing is painted grey.",
}
BUS = {201: "The Sensor Bus Interface connects to the Pressure Gauge."}


@pytest.fixture
def store(conn: sqlite3.Connection) -> SQLiteGraphStore:
    add_documents(conn, 1, 2)
    gs = SQLiteGraphStore(conn)
    for doc_id, source, chunks in ((1, "manual.pdf", MANUAL), (2, "bus.txt", BUS)):
        graph = extract([ChunkText(c, t) for c, t in chunks.items()])
        gs.replace_document(doc_id, "c", source, source, graph)
    return gs


def query(text: str, sources: tuple[str, ...] = (), category: str | None = None) -> SourceQuery:
    flt = SearchFilter(collection="c", sources=sources, category=category)
    return SourceQuery(text=text, k=10, mode="hybrid", flt=flt)


def test_question_keys_hold_every_short_word_run_but_no_lone_common_word() -> None:
    keys = question_keys("What depends on the Controller Firmware?")
    assert "controller firmware" in keys and "firmware" in keys
    assert "what" not in keys and "the" not in keys


def test_entities_named_in_a_question_are_found_case_insensitively(
    store: SQLiteGraphStore,
) -> None:
    assert named_entities(store, "c", "which parts depend on the controller firmware?") == [
        "controller firmware"
    ]
    assert named_entities(store, "c", "what does the SBI connect to?") == ["sensor bus interface"]


def test_walk_reaches_two_hops_and_never_three(store: SQLiteGraphStore) -> None:
    steps = walk(store, "c", ["valve controller"])
    reached = {(s.hop, s.relation.source, s.relation.target) for s in steps}
    assert (1, "valve controller", "controller firmware") in reached
    assert (2, "controller firmware", "sensor bus interface") in reached
    assert all(s.hop <= 2 for s in steps)
    assert not any("pressure gauge" in (s.relation.source, s.relation.target) for s in steps)
    with pytest.raises(ValueError):
        walk(store, "c", ["valve controller"], depth=3)


def test_typed_edges_come_before_co_occurrence(store: SQLiteGraphStore) -> None:
    kinds = [s.relation.kind for s in walk(store, "c", ["controller firmware"], depth=1)]
    weak = [k == "mentions_with" for k in kinds]
    assert weak.count(False) == 3 and weak == sorted(weak)


def test_source_yields_the_passages_behind_the_edges_it_walked(store: SQLiteGraphStore) -> None:
    source = GraphSource(store)
    q = query("Which components depend on the Controller Firmware?")
    found = source.candidates(q, {})
    chunks = [c.chunk_id for c in found]
    assert {101, 102, 103} <= set(chunks)
    assert 104 not in chunks  # names nothing: no edge leads to it
    assert [c.rank for c in found] == list(range(1, len(found) + 1))
    assert "graph" in q.timings


def test_source_finds_nothing_for_a_question_naming_no_entity(store: SQLiteGraphStore) -> None:
    assert GraphSource(store).candidates(query("how do I paint it?"), {}) == []


def test_source_is_scoped_to_the_query_collection(store: SQLiteGraphStore) -> None:
    q = SourceQuery("What uses the Controller Firmware?", 10, "hybrid", SearchFilter("other"))
    assert GraphSource(store).candidates(q, {}) == []


def test_source_filter_limits_the_passages_to_those_documents(store: SQLiteGraphStore) -> None:
    found = GraphSource(store).candidates(
        query("What does the Sensor Bus Interface connect to?", sources=("bus.txt",)), {}
    )
    assert [c.chunk_id for c in found] == [201]


def test_source_steps_aside_under_a_category_filter_and_says_so(store: SQLiteGraphStore) -> None:
    q = query("What uses the Controller Firmware?", category="manuals")
    assert GraphSource(store).candidates(q, {}) == []
    assert "graph_skipped_filter" in q.timings


def test_source_serves_hybrid_search_only(store: SQLiteGraphStore) -> None:
    source = GraphSource(store)
    assert source.serves("hybrid") and not source.serves("keyword") and not source.serves("vector")


def test_entity_without_edges_contributes_the_passages_that_mention_it(
    conn: sqlite3.Connection,
) -> None:
    add_documents(conn, 5)
    gs = SQLiteGraphStore(conn)
    gs.replace_document(5, "c", "t", "t.txt", extract([ChunkText(7, "Ask the Helpdesk Team.")]))
    assert GraphSource(gs).chunk_ids("who is the helpdesk team?", "c") == [7]
