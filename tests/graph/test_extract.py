"""Rule extraction over plain chunk values: what is a name, what is not, and the edges."""

from __future__ import annotations

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText, DocumentGraph, Entity, entity_key


def graph_of(*texts: str) -> DocumentGraph:
    return extract([ChunkText(i + 1, text, "") for i, text in enumerate(texts)])


def names(graph: DocumentGraph) -> set[str]:
    return {e.name for e in graph.entities}


def entity(graph: DocumentGraph, key: str) -> Entity:
    return next(e for e in graph.entities if e.key == entity_key(key))


def typed(graph: DocumentGraph) -> set[tuple[str, str, str]]:
    return {(r.source, r.target, r.kind) for r in graph.relations if r.kind != "mentions_with"}


def test_multi_word_proper_name_mid_sentence_is_an_entity() -> None:
    g = graph_of("The plant uses the Filesystem Hierarchy Standard for its layout.")
    assert "Filesystem Hierarchy Standard" in names(g)


def test_acronym_and_its_expansion_are_one_entity_with_the_acronym_as_alias() -> None:
    g = graph_of(
        "The firmware talks to the Sensor Bus Interface (SBI) at boot.",
        "Later the SBI resets the valves.",
    )
    sbi = entity(g, "sensor bus interface")
    assert sbi.name == "Sensor Bus Interface"
    assert sbi.aliases == ("SBI",)
    assert sbi.chunk_ids == (1, 2)  # the lone acronym in chunk 2 is the same entity
    assert "sbi" not in {e.key for e in g.entities}


def test_acronym_before_its_expansion_in_parentheses_is_recognised() -> None:
    g = graph_of("Settings are read by the PCU (Pump Control Unit) on start.")
    assert entity(g, "pump control unit").aliases == ("PCU",)


def test_parenthesised_acronym_whose_letters_do_not_match_is_not_an_alias() -> None:
    g = graph_of("The gauge reads the Outlet Pressure (XYZ) every second.")
    assert all(not e.aliases for e in g.entities)


def test_codes_and_standards_are_entities_with_normalised_keys() -> None:
    g = graph_of(
        "Part FC-001-234 fixes CVE-2024-1234 and follows RFC2119 and ISO 8601 dates.",
        "See RFC 2119 again.",
    )
    assert {"FC-001-234", "CVE-2024-1234", "ISO 8601"} <= names(g)
    rfc = entity(g, "RFC 2119")
    assert rfc.kind == "code" and rfc.chunk_ids == (1, 2)


def test_section_numbers_count_only_after_a_word_that_says_so() -> None:
    g = graph_of("Values are listed in Section 4.2 of the guide. Version 4.2 is current.")
    sections = [e for e in g.entities if e.kind == "section"]
    assert [e.name for e in sections] == ["Section 4.2"]


def test_configuration_names_and_file_names_are_entities() -> None:
    g = graph_of("Raise shared_buffers in postgresql.conf before the restart.")
    assert {"shared_buffers", "postgresql.conf"} <= names(g)


def test_defined_terms_are_entities() -> None:
    g = graph_of(
        '"Operator" means the person who runs the plant.',
        'Acme Pumps Limited (the "Vendor") supplies spare parts.',
    )
    assert entity(g, "operator").kind == "term"
    vendor = entity(g, "acme pumps limited")
    assert vendor.kind == "term" and vendor.aliases == ("Vendor",)


def test_sentence_initial_common_word_is_not_part_of_a_name() -> None:
    g = graph_of(
        "Install Debian Policy tools first. You can install them later too.",
        "Mirrors carry Debian Policy updates.",
    )
    assert "Debian Policy" in names(g)
    assert not any(n.startswith("Install") for n in names(g))


def test_the_is_dropped_from_the_front_of_a_name() -> None:
    g = graph_of("Errors go to the The Event Logger service.", "The Event Logger rotates files.")
    assert "Event Logger" in names(g)
    assert not any(n.startswith("The") for n in names(g))


def test_headings_and_navigation_lines_give_no_names() -> None:
    g = graph_of("Getting Started\nTable of Contents\nPrev Up Next\nThe pump needs oil.")
    assert names(g) == set()


def test_months_and_days_are_not_names() -> None:
    g = graph_of("The audit ran on Monday, March 3 and again in June at the site.")
    assert names(g) == set()


def test_common_words_in_title_case_at_a_sentence_start_are_not_names() -> None:
    g = graph_of("Further Reading lists more books. The further reading list is long.")
    assert names(g) == set()


def test_single_capitalised_word_written_lower_case_elsewhere_is_not_a_name() -> None:
    g = graph_of("Open the Valve slowly. Close the valve after use.")
    assert "Valve" not in names(g)


def test_single_capitalised_word_never_written_lower_case_is_a_name() -> None:
    g = graph_of("Packages built for Debian use the same layout.")
    assert "Debian" in names(g)


def test_allcaps_warnings_and_rfc_keywords_are_not_acronyms() -> None:
    g = graph_of("NOTE: the client MUST send a request over TCP.")
    assert names(g) == {"TCP"}


def test_camel_case_product_name_is_a_product() -> None:
    g = graph_of("PostgreSQL 15 stores rows in pages.")
    assert entity(g, "postgresql").kind == "product"


def test_dependency_patterns_make_typed_relations() -> None:
    g = graph_of(
        "The Controller Firmware depends on the Sensor Bus Interface.",
        "The Valve Controller requires the Controller Firmware.",
        "The Pump Assembly replaced the Legacy Pump in 2020.",
        "The Legacy Pump is used by the Cooling Loop.",
    )
    assert typed(g) == {
        ("controller firmware", "sensor bus interface", "depends_on"),
        ("valve controller", "controller firmware", "requires"),
        ("pump assembly", "legacy pump", "replaces"),
        ("cooling loop", "legacy pump", "uses"),
    }


def test_negated_pattern_makes_no_typed_relation() -> None:
    g = graph_of("The Valve Controller does not depend on the Sensor Bus Interface.")
    assert typed(g) == set()


def test_relations_keep_the_chunk_ids_they_were_read_from() -> None:
    g = graph_of(
        "The Valve Controller uses the Sensor Bus Interface.",
        "Nothing here.",
        "The Valve Controller uses the Sensor Bus Interface again.",
    )
    rel = next(r for r in g.relations if r.kind == "uses")
    assert rel.chunk_ids == (1, 3) and rel.weight == 2.0


def test_names_side_by_side_in_two_sentences_are_linked_weakly() -> None:
    g = graph_of(
        "The Valve Controller and the Sensor Bus Interface share a cabinet.",
        "The Sensor Bus Interface sits beside the Valve Controller.",
    )
    weak = [r for r in g.relations if r.kind == "mentions_with"]
    assert [(r.source, r.target, r.weight) for r in weak] == [
        ("sensor bus interface", "valve controller", 0.5)
    ]


def test_names_side_by_side_once_are_not_linked() -> None:
    g = graph_of("The Valve Controller and the Sensor Bus Interface share a cabinet.")
    assert [r for r in g.relations if r.kind == "mentions_with"] == []


def test_see_and_described_in_phrases_are_references() -> None:
    g = graph_of(
        "For key words see RFC 2119.",
        'Limits are as described in Section 20.4 and in "Resource Consumption".',
        'Details: see "Server Configuration".',
    )
    assert {r.key for r in g.references} == {
        entity_key("RFC 2119"),
        entity_key("Section 20.4"),
        entity_key("Server Configuration"),
    }


def test_extraction_is_deterministic() -> None:
    text = "The Valve Controller uses the Sensor Bus Interface (SBI) and RFC 2119."
    assert graph_of(text) == graph_of(text)


def test_run_of_capitalised_command_words_is_one_name() -> None:
    g = graph_of("A publication is created using the CREATE PUBLICATION command.")
    assert names(g) == {"CREATE PUBLICATION"}


def test_acronym_opening_a_name_belongs_to_it() -> None:
    g = graph_of("Even the GNU Project applies the GNU General Public License.")
    assert names(g) == {"GNU Project", "GNU General Public License"}


def test_day_abbreviations_are_not_names() -> None:
    g = graph_of("The day is one of Mon, Tue, Wed, Thu, Fri, Sat or Sun in the changelog.")
    assert names(g) == set()


def test_stored_chunk_records_are_read_with_their_ids_and_sections() -> None:
    from citewise.graph.extract import extract_records
    from citewise.types import ChunkRecord

    rec = ChunkRecord(
        chunk_id=42, doc_id=1, source="a.txt", title="A", section="7. Relations > 7.1. Syntax",
        page_start=None, page_end=None, text="The Valve Controller uses the SBI bus.", parent_id=1,
    )  # fmt: skip
    g = extract_records([rec])
    assert entity(g, "valve controller").chunk_ids == (42,)
    assert "7.1. Syntax" in g.headings
