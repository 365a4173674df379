"""The graph CandidateSource over an in-memory graph: passages behind the walked edges."""

from __future__ import annotations

import sqlite3

import pytest

from citewise.chat.query_router import asks_relationship
from citewise.graph.extract import extract
from citewise.graph.model import ChunkText
from citewise.graph.sqlite import SQLiteGraphStore
from citewise.graph.walk import named_entities, question_keys, walk
from citewise.retrieve.sources.base import SourceQuery
from citewise.retrieve.sources.graph import (
    GraphSource,
    by_document_turns,
    expand_known,
)
from citewise.types import Candidate, SearchFilter
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
    gs = SQLiteGraphStore.over(conn)
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
    source = GraphSource(store, per_document=10)
    q = query("Which components depend on the Controller Firmware?")
    found = source.candidates(q, {})
    chunks = [c.chunk_id for c in found]
    assert {101, 102, 103} <= set(chunks)
    assert 104 not in chunks  # names nothing: no edge leads to it
    assert [c.rank for c in found] == list(range(1, len(found) + 1))
    assert "graph" in q.trace.timings_ms()


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
    assert "graph_skipped_filter" in q.trace.notes


def test_source_serves_hybrid_search_only(store: SQLiteGraphStore) -> None:
    source = GraphSource(store)
    assert source.serves("hybrid") and not source.serves("keyword") and not source.serves("vector")


def test_entity_without_edges_contributes_the_passages_that_mention_it(
    conn: sqlite3.Connection,
) -> None:
    add_documents(conn, 5)
    gs = SQLiteGraphStore.over(conn)
    gs.replace_document(5, "c", "t", "t.txt", extract([ChunkText(7, "Ask the Helpdesk Team.")]))
    assert GraphSource(gs).chunk_ids("who is the helpdesk team?", "c") == [7]


def test_lone_lower_case_word_is_no_name_but_a_marked_one_is() -> None:
    keys = question_keys("Which shared libraries need the Depends field and FC-001-234?")
    assert "shared" not in keys and "depends" in keys and "fc001 234" in keys
    assert "shared libraries" in keys


def test_word_run_with_an_article_at_an_end_is_not_a_name() -> None:
    assert "package" not in question_keys("How does it relate to a package?")


def test_entity_most_documents_mention_is_not_a_seed(conn: sqlite3.Connection) -> None:
    add_documents(conn, 1, 2, 3, 4, 5)
    gs = SQLiteGraphStore.over(conn)
    for d in range(1, 6):
        text = "Debian ships the Sensor Bus Interface." if d == 1 else "Debian ships things."
        gs.replace_document(d, "c", f"d{d}", f"d{d}.txt", extract([ChunkText(d * 10, text)]))
    assert named_entities(gs, "c", "Does Debian ship the Sensor Bus Interface?") == [
        "sensor bus interface"
    ]


def test_by_document_turns_gives_each_document_its_best_passage_first() -> None:
    ranked = [1, 2, 3, 4, 5]
    doc_of = {1: 10, 2: 10, 3: 20, 4: 10, 5: 30}
    assert by_document_turns(ranked, doc_of, 1) == [1, 3, 5]
    assert by_document_turns(ranked, doc_of, 2) == [1, 3, 5, 2]


def test_documents_whose_passages_score_more_in_total_come_first() -> None:
    ranked = [1, 2, 3, 4]
    doc_of = {1: 10, 2: 20, 3: 20, 4: 20}
    score = {1: 2.0, 2: 1.5, 3: 1.0, 4: 1.0}
    assert by_document_turns(ranked, doc_of, 1, score) == [2, 1]


def test_expansion_keeps_known_passages_and_adds_few_missed_documents() -> None:
    ranked = [1, 2, 3, 4, 5, 6]
    doc_of = {1: 10, 2: 20, 3: 30, 4: 40, 5: 10, 6: 20}
    known = {5, 6}  # the other sources found documents 10 and 20
    assert expand_known(ranked, doc_of, known, new_documents=1) == [3, 5, 6]


def test_source_with_other_sources_lists_brings_in_at_most_two_new_documents(
    store: SQLiteGraphStore,
) -> None:
    q = query("Which components depend on the Controller Firmware?")
    found = {"keyword": [Candidate(chunk_id=104, rank=1, score=1.0)]}
    chunks = [c.chunk_id for c in GraphSource(store).candidates(q, found)]
    assert len(chunks) <= 2


def test_the_source_joins_only_the_questions_its_route_takes(store: SQLiteGraphStore) -> None:
    never = GraphSource(store, route=lambda q: False)
    assert (
        never.candidates(query("Which of my documents discuss the Controller Firmware?"), {}) == []
    )
    routed = GraphSource(store, route=asks_relationship)
    assert routed.candidates(query("Which of my documents discuss the Controller Firmware?"), {})
    assert routed.candidates(query("What is the Controller Firmware?"), {}) == []


def test_a_lone_lower_case_word_names_a_technical_entity_only(conn: sqlite3.Connection) -> None:
    add_documents(conn, 7)
    gs = SQLiteGraphStore.over(conn)
    text = "Packages may use debconf to ask questions. The debconf program stores the answers."
    gs.replace_document(7, "c", "p", "p.html", extract([ChunkText(70, text)]))
    assert named_entities(gs, "c", "Which of my documents discuss debconf?") == ["debconf"]
    assert named_entities(gs, "c", "Which of my documents discuss packages?") == []


def test_an_abbreviation_one_document_defines_names_the_thing_in_the_others(
    conn: sqlite3.Connection,
) -> None:
    add_documents(conn, 8, 9)
    gs = SQLiteGraphStore.over(conn)
    defining = "Files follow the Filesystem Hierarchy Standard (FHS) in this release."
    using = "Packages must place their files as the FHS requires."
    gs.replace_document(8, "c", "a", "a.html", extract([ChunkText(80, defining)]))
    gs.replace_document(9, "c", "b", "b.html", extract([ChunkText(90, using)]))
    seeds = named_entities(gs, "c", "Which documents discuss the Filesystem Hierarchy Standard?")
    assert "filesystem hierarchy standard" in seeds and "fhs" in seeds
