"""A document's own terms for the names it is about, read without an LLM (pure)."""

from __future__ import annotations

import pytest

from citewise.text.abbreviations import abbreviations
from citewise.text.aliases import Alias, aliases, definitions

PREAMBLE = (
    'THIS EXCLUSIVE SOFTWARE LICENSE AGREEMENT (this "Agreement") is entered into as of '
    "April 26, 2013, by and between Akai Studio LLC, a limited liability corporation organized "
    "under the laws of the State of Virginia (“Licensor”), and Ceres Ventures, Inc., a "
    "corporation organized under the laws of the State of Nevada (“Licensee”). Licensor and "
    'Licensee may hereinafter be referred to individually as a "Party".'
)


def test_parties_get_the_roles_the_preamble_defines_not_their_states() -> None:
    found = aliases(PREAMBLE)
    assert Alias("Akai Studio LLC", "Licensor") in found
    assert Alias("Ceres Ventures, Inc.", "Licensee") in found
    assert all(a.name not in ("Virginia", "Nevada") for a in found)
    assert all(a.term != "Agreement" for a in found)  # the document itself is no party


def test_several_terms_in_one_bracket_and_a_company_form_inside_the_name() -> None:
    text = (
        "EMPLOYMENT AGREEMENT is made between Rock Energy Resources, Inc. Corporation, a "
        "Delaware Corporation (the “Company”, “Employer”), and Tom S. Elliott (“Elliott”, "
        "“Employee”)."
    )
    found = aliases(text)
    assert Alias("Rock Energy Resources, Inc. Corporation", "Employer") in found
    assert Alias("Tom S. Elliott", "Employee") in found


def test_referred_to_as_without_brackets() -> None:
    text = (
        "This lease agreement was entered into between Edward Hohman, an individual, referred "
        'to as "lessor," and Post Tension of Nevada, Inc., referred to as "lessee."'
    )
    assert aliases(text) == (
        Alias("Edward Hohman", "lessor"),
        Alias("Post Tension of Nevada, Inc.", "lessee"),
    )


def test_abbreviations_after_and_before_their_expansion() -> None:
    text = (
        "Approved by the European Medicines Agency (EMA) last year. Later the FDA (Food and "
        "Drug Administration) agreed. A date (May) is no abbreviation."
    )
    found = aliases(text)
    assert Alias("European Medicines Agency", "EMA") in found
    assert Alias("Food and Drug Administration", "FDA") in found
    assert len(found) == 2


def test_a_dated_definition_names_no_party() -> None:
    assert aliases('dated as of July 1, 2005 (the "Effective Date")') == ()


def test_definitions_say_what_each_is_and_where_its_name_is_written() -> None:
    text = (
        'This Distribution Agreement is made between Acme Pumps Limited ("Supplier") and '
        'Borealis Trading GmbH ("Distributor"). "Territory" means Norway. The Sensor Bus '
        "Interface (SBI) is covered."
    )
    found = {(d.name, d.term, d.kind) for d in definitions(text)}
    assert ("Acme Pumps Limited", "Supplier", "party") in found
    assert ("Borealis Trading GmbH", "Distributor", "party") in found
    assert ("Territory", "Territory", "term") in found
    assert ("Sensor Bus Interface", "SBI", "abbreviation") in found
    for d in definitions(text):
        assert text[d.start : d.end].startswith(d.name.split()[0])


def test_a_party_without_a_role_is_a_definition_but_no_alias() -> None:
    text = "This Agreement is made between Acme Pumps Limited and Borealis Trading GmbH."
    assert {d.name for d in definitions(text) if d.kind == "party"} == {
        "Acme Pumps Limited",
        "Borealis Trading GmbH",
    }
    assert aliases(text) == ()


def test_a_bracket_outside_a_between_clause_defines_a_term_not_a_party() -> None:
    text = 'The Purchase Agreement and the Transaction Documents (the "Documents") survive.'
    assert [(d.name, d.kind) for d in definitions(text)] == [("Transaction Documents", "term")]


@pytest.mark.parametrize(
    ("text", "full", "abbr"),
    [
        ("the write-ahead log (WAL) is flushed", "write-ahead log", "WAL"),
        ("the Bureau of Labor Statistics (BLS) said", "Bureau of Labor Statistics", "BLS"),
        ("the FHS (Filesystem Hierarchy Standard) says", "Filesystem Hierarchy Standard", "FHS"),
        ("called “transparent huge pages” (THP).", "transparent huge pages", "THP"),
    ],
)
def test_abbreviations_spelled_by_initials_either_way_round(
    text: str, full: str, abbr: str
) -> None:
    assert [(a.full, a.abbr) for a in abbreviations(text)] == [(full, abbr)]


def test_words_a_comma_separates_do_not_spell_an_abbreviation() -> None:
    assert abbreviations("Storage, Bus, Interface (SBI) here") == []
