"""Blocks that never answer on their own: furniture removed, framing blocks recognised (pure)."""

from __future__ import annotations

from citewise.text.blocks import aside_kind, asks_about, label_of, stored_aside, without_furniture


def test_page_furniture_and_anchor_glyphs_are_removed() -> None:
    text = (
        "The term is two years.\n[Remainder of Page Intentionally Left Blank]\nPage 3 of 12\n"
        "Installation¶"
    )
    assert without_furniture(text) == "The term is two years.\n\n\nInstallation"
    assert without_furniture("A blank form is attached.") == "A blank form is attached."


def test_a_preamble_naming_the_parties_is_set_aside_but_answers_who_the_parties_are() -> None:
    preamble = (
        'This Distribution Agreement (the "Agreement") is entered into as of May 1, 2020 by and '
        'between Acme Widgets, Inc. ("Company") and Beta LLC ("Distributor").'
    )
    assert aside_kind(preamble) == "preamble"
    assert not asks_about("What exhibitions must Beta attend for Acme?", "preamble")
    assert asks_about("Who are the parties to the Acme agreement?", "preamble")


def test_a_clause_that_mentions_an_agreement_between_parties_is_no_preamble() -> None:
    clause = (
        "Distributor shall demonstrate the Products at exhibitions. Any dispute between the "
        "Company and Distributor is settled by arbitration."
    )
    assert aside_kind(clause) is None


def test_signature_blocks_and_tables_of_contents() -> None:
    signature = "IN WITNESS WHEREOF, the parties have signed.\nBy: ____\nName: A. Smith"
    assert aside_kind(signature) == "signature"
    assert asks_about("Who signed the agreement for Acme?", "signature")
    contents = "1. Definitions ........ 1\n2. Term ........ 3\n3. Fees ....... 4\n4. Law ....... 9"
    assert aside_kind(contents) == "contents"
    table = "Revenue 1,234\nCost 1,000\nProfit 234\nTax 12"
    assert aside_kind(table) is None


def test_a_preamble_that_says_made_or_effective_before_the_parties() -> None:
    made = (
        "THIS AGREEMENT made the 1st day of April, 1996, between BLAW KNOX CONSTRUCTION "
        "EQUIPMENT CORPORATION and Western Traction Company, Inc. with offices at Sparks NV."
    )
    effective = (
        "This Agreement (this “Agreement”) effective November 16, 2016, is between VALIDIAN "
        "Corporation, a Nevada Corporation (“VALIDIAN”) and Ganthet Mobile Corporation."
    )
    assert aside_kind(made) == aside_kind(effective) == "preamble"
    assert aside_kind("This Agreement shall be governed by the laws of New York.") is None


def test_a_stored_label_is_read_as_is_and_a_missing_one_from_the_text() -> None:
    signature = "IN WITNESS WHEREOF, the parties have executed this Agreement.\nBy: /s/ A\nName: A"
    assert label_of(signature) == "signature" and label_of("The term is two years.") == ""
    assert stored_aside(None, signature) == "signature"  # a chunk stored before labels
    assert stored_aside("", signature) is None  # ingest's label rules, not the text again
    assert stored_aside("contents", "The term is two years.") == "contents"
