"""Contract clauses as reading units: a clause's label ("(c) ", "(iii) ") opens prose, not
code, and a page number between a lead-in and its items is page furniture."""

from __future__ import annotations

from answer_factories import passage
from citewise.extractive.answerer import _sentences
from citewise.extractive.units import is_code_line, is_page_line, is_prose, lead_in_end
from fake_embedder import answerer


def test_a_labelled_clause_is_prose_and_not_code() -> None:
    clause = "(c) Within 120 days after the end of each fiscal year, DISTRIBUTOR shall report."
    assert is_prose(clause, 4)
    assert not is_code_line(clause)
    assert is_prose("(iii) display the EQUIPMENT in the most suitable exhibitions.", 4)
    assert is_code_line("(lambda x: x)(3);")  # code that opens with a bracket stays code
    assert not is_prose("[x for x in range(3)]", 4)


def test_labelled_items_follow_their_lead_in() -> None:
    lines = ["DISTRIBUTOR shall:", "(i) advertise it.", "(ii) issue literature.", "Other."]
    assert lead_in_end(lines, 0) == 3


def test_page_numbers_are_left_out_of_a_passage_s_sentences() -> None:
    assert is_page_line("Page 1") and is_page_line("- 4 -") and is_page_line("Page 2 of 9")
    assert not is_page_line("Page 1 lists the parties.")
    plain, labelled = _sentences("The Distributor shall:\nPage 1\n(i) advertise the goods.")
    assert plain == labelled == ["The Distributor shall:", "(i) advertise the goods."]


def test_a_labelled_clause_answers() -> None:
    a, _ = answerer()
    p = passage(
        1,
        "14. GENERAL PROVISIONS\n(c) Within 120 days after the end of each fiscal year, "
        "DISTRIBUTOR shall furnish its audited financial statements for such fiscal year.",
    )
    r = a.answer("Within how many days must the audited financial statements be furnished?", [p])
    assert not r.abstained
    assert "120 days" in r.text
