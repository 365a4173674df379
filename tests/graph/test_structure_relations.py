"""Typed relations from what a document is and from lists: an agreement defines its terms, a
manual page's options are part of its command, a verb's object list gives each its edge."""

from __future__ import annotations

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText, entity_key
from citewise.graph.rules.relations import typed_relations
from citewise.graph.rules.tokens import Mention


def _typed(*chunks: ChunkText) -> set[tuple[str, str, str]]:
    graph = extract(chunks)
    return {(r.source, r.target, r.kind) for r in graph.relations if r.kind != "mentions_with"}


def test_an_agreement_defines_the_terms_it_defines() -> None:
    typed = _typed(
        ChunkText(1, "This Distribution Agreement is made between Acme Pumps Limited and Borealis "
                  "Trading GmbH.", ""),
        ChunkText(2, '"Territory" means Norway and Sweden. The Territory is large.', ""),
    )  # fmt: skip
    assert ("distribution agreement", "territory", "defines") in typed


def test_without_an_agreement_a_definition_is_no_defines_edge() -> None:
    typed = _typed(ChunkText(1, '"Territory" means Norway and Sweden in this paper.', ""))
    assert not any(kind == "defines" for _, _, kind in typed)


def test_a_manual_pages_options_are_part_of_its_command() -> None:
    typed = _typed(
        ChunkText(1, "The pg_dump program dumps a database. Run pg_dump --verbose to see it.",
                  "pg_dump"),
        ChunkText(2, "With --format=custom the pg_dump program writes an archive.", "pg_dump"),
    )  # fmt: skip
    assert ("verbose", "pg dump", "part_of") in typed
    assert ("format", "pg dump", "part_of") in typed


def test_a_verbs_object_list_gives_each_object_its_edge() -> None:
    text = "The Valve Controller requires the Sensor Bus, the Cooling Loop and the Pump Driver."
    names = ["Valve Controller", "Sensor Bus", "Cooling Loop", "Pump Driver"]
    mentions = [
        Mention(entity_key(n), n, "name", text.index(n), text.index(n) + len(n)) for n in names
    ]
    found = set(typed_relations(text, mentions))
    assert {t for _, t, _ in found} == {"sensor bus", "cooling loop", "pump driver"}
    assert all(s == "valve controller" and k == "requires" for s, _, k in found)
