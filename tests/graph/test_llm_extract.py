"""The optional LLM pass, with a scripted LLM: typed additions, and bad replies ignored."""

from __future__ import annotations

import json
import logging

import pytest

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText
from citewise.ingest.graph_llm import LLMExtractor, merge, read_reply
from citewise.llm.base import LLMConnectionError
from citewise.testing.fakes import FakeLLM

CHUNK = ChunkText(7, "The Controller Firmware configures the Relay Board over the CAN link.")


def reply(entities: list[object], relations: list[object]) -> str:
    return json.dumps({"entities": entities, "relations": relations})


def test_typed_entities_and_relations_are_read_with_their_chunk() -> None:
    llm = FakeLLM(
        reply(
            [{"name": "Controller Firmware", "type": "software"},
             {"name": "Relay Board", "type": "hardware"}],
            [{"source": "Relay Board", "target": "Controller Firmware", "type": "is_part_of"}],
        )
    )  # fmt: skip
    graph = LLMExtractor(llm).extract([CHUNK])
    assert {(e.key, e.kind, e.chunk_ids) for e in graph.entities} == {
        ("controller firmware", "software", (7,)),
        ("relay board", "hardware", (7,)),
    }
    assert [(r.source, r.target, r.kind) for r in graph.relations] == [
        ("relay board", "controller firmware", "part_of")
    ]
    assert llm.calls[0].json_mode and CHUNK.text in llm.prompts[0]


def test_malformed_json_is_ignored_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        graph = LLMExtractor(FakeLLM('{"entities": [')).extract([CHUNK])
    assert graph.entities == () and graph.relations == ()
    assert "not JSON" in caplog.text


def test_off_schema_and_invented_items_are_dropped_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    text = reply(
        [{"name": "Relay Board", "type": "gadget"}, {"name": "Flux Capacitor", "type": "hardware"},
         {"name": "Relay Board", "type": "hardware"}, "junk"],
        [{"source": "Relay Board", "target": "Moon Base", "type": "connects_to"},
         {"source": "Relay Board", "target": "CAN link", "type": "teleports_to"}],
    )  # fmt: skip
    with caplog.at_level(logging.WARNING):
        graph = read_reply(text, CHUNK)
    assert [e.key for e in graph.entities] == ["relay board"]
    assert graph.relations == ()
    assert "4 items" in caplog.text


def test_reply_that_is_not_an_object_is_ignored() -> None:
    assert read_reply("[1, 2]", CHUNK).entities == ()


def test_failed_call_leaves_the_chunk_to_the_rules(caplog: pytest.LogCaptureFixture) -> None:
    llm = FakeLLM(LLMConnectionError("http://127.0.0.1:1 refused"))
    with caplog.at_level(logging.WARNING):
        assert LLMExtractor(llm).extract([CHUNK]).entities == ()
    assert "skipped chunk 7" in caplog.text


def test_merge_types_a_rule_entity_and_adds_the_llm_relations() -> None:
    rules = extract([CHUNK])
    llm = read_reply(
        reply(
            [{"name": "Relay Board", "type": "hardware"}],
            [{"source": "Controller Firmware", "target": "Relay Board", "type": "connects_to"}],
        ),
        CHUNK,
    )
    merged = merge(rules, llm)
    kinds = {e.key: e.kind for e in merged.entities}
    assert kinds["relay board"] == "hardware"
    typed = {(r.source, r.target, r.kind) for r in merged.relations if r.kind != "mentions_with"}
    assert typed == {
        ("controller firmware", "relay board", "configures"),
        ("controller firmware", "relay board", "connects_to"),
    }
    assert merge(rules, llm).references == rules.references
