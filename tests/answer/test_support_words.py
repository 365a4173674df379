"""The support check of an LLM's answer reads the document's words too: a party named by its
role in the passage, numbers in words and in figures, and a made-up term wherever it stands."""

from __future__ import annotations

import pytest

from answer_factories import passage
from citewise.answer.grounding import check_answer
from citewise.answer.lexical import Evidence, missing_spelled_numbers, unknown_terms
from citewise.answer.spelled import digitised, value_of
from citewise.answer.vocabulary import ordinary, vocabulary

EXHIBITIONS = passage(
    1,
    "Distributor shall demonstrate the Products at the following exhibitions: CeBIT and "
    "Computex. Payment is due within thirty (30) days of the invoice date.",
    source="distribution-agreement.pdf",
)
PAXOS = passage(
    2,
    "The protocol has three roles: proposers, acceptors and learners. A proposer sends a "
    "prepare request to a majority of acceptors.",
    source="paxos.pdf",
)
needs_vocabulary = pytest.mark.skipif(not vocabulary(), reason="no bundled model vocabulary")


def test_a_party_named_in_the_answer_is_held_by_its_role_in_the_passage() -> None:
    text = "Acme Corp shall demonstrate the Products at the exhibitions CeBIT and Computex [1]."
    alone = check_answer(text, [EXHIBITIONS], terms=True)
    assert alone.sentences[0].verdict == "unsupported"  # "Acme" is nowhere in what was shown
    aliased = check_answer(text, [EXHIBITIONS], terms=True, aliases={"Acme Corp": ["Distributor"]})
    assert aliased.sentences[0].verdict == "supported"
    assert aliased.supported_text == text  # the answer keeps the user's name for the party


def test_an_alias_does_not_hold_what_the_passage_does_not_say() -> None:
    text = "Acme Corp must demonstrate the Products at Gitex [1]."
    report = check_answer(text, [EXHIBITIONS], terms=True, aliases={"Acme Corp": ["Distributor"]})
    assert report.sentences[0].verdict != "supported"


@pytest.mark.parametrize(
    ("phrase", "value"),
    [("thirty", 30), ("twenty-five", 25), ("one hundred and twenty", 120), ("hundred", None)],
)
def test_numbers_in_words_have_their_value(phrase: str, value: int | None) -> None:
    assert value_of(phrase) == value


def test_a_number_in_words_and_in_figures_is_one_value() -> None:
    assert digitised("within thirty (30) days") == "within 30 (30) days"
    ev = Evidence.of(["Payment is due within 30 days of the invoice date."])
    assert missing_spelled_numbers("Payment is due within thirty days.", ev) == []
    assert missing_spelled_numbers("Payment is due within forty days.", ev) == ["forty"]
    spelled = check_answer("Payment is due within 30 days of the invoice date [1].", [EXHIBITIONS])
    assert spelled.sentences[0].verdict == "supported"


@needs_vocabulary
@pytest.mark.parametrize(
    ("word", "is_ordinary"),
    [("acceptors", True), ("proposers", True), ("typically", True), ("vorlandexs", False)],
)
def test_ordinary_words_are_told_from_made_up_ones(word: str, is_ordinary: bool) -> None:
    assert ordinary(word) is is_ordinary


@needs_vocabulary
@pytest.mark.parametrize(
    "claim",
    [
        "Vorlandexs, acceptors and learners are the three roles [2].",
        "Vorlandex-order roles are proposers, acceptors and learners [2].",
        "The roles are proposers, vorlandexs and learners [2].",
    ],
)
def test_a_made_up_term_is_caught_wherever_it_stands(claim: str) -> None:
    report = check_answer(claim, [PAXOS], terms=True)
    assert report.sentences[0].verdict == "unsupported"


@needs_vocabulary
def test_a_paraphrase_word_is_not_taken_for_an_invented_term() -> None:
    known = Evidence.of([PAXOS.context])
    found = unknown_terms("Typically, proposers contact most acceptors.", known)
    assert found.names == () and "Typically" in found.words


BIGTABLE = passage(1, "Bigtable stores data in SSTables made of 64 KB blocks by default.")
GFS = passage(2, "GFS stores files as chunks of 64 MB each, larger than file system blocks.")


def test_each_part_of_a_comparison_is_held_by_its_own_passage() -> None:
    text = "Bigtable stores data in 64 KB blocks, while GFS stores files as chunks of 64 MB [1]."
    report = check_answer(text, [BIGTABLE, GFS], terms=True, repair=True)
    s = report.sentences[0]
    assert s.verdict == "supported" and s.cited == (1, 2)
    assert report.supported_text.endswith("chunks of 64 MB [1, 2].")


def test_a_part_no_passage_holds_drops_the_sentence() -> None:
    text = "Bigtable stores data in 64 KB blocks, while GFS stores files as chunks of 16 MB [1]."
    report = check_answer(text, [BIGTABLE, GFS], terms=True, repair=True)
    assert report.sentences[0].verdict == "unsupported" and report.supported_text == ""
