from __future__ import annotations

from answer_factories import passage
from citewise.answer.citations import build_citations

HANDBOOK = (
    "Every full-time employee gets 28 days of paid annual leave per year. "
    "Part-time employees get paid annual leave in proportion to the days per week they work "
    "for the employee year."
)


def test_quote_holds_the_fact_sentence_when_the_answer_cites_several_sentences() -> None:
    answer = (
        "Every full-time employee gets 28 days of paid annual leave per year [1]. "
        "Part-time employees get paid annual leave in proportion to the days per week they "
        "work for the employee year [1]."
    )
    (citation,) = build_citations(answer, [passage(1, HANDBOOK)])
    assert "28 days of paid annual leave" in citation.quote


def test_quote_of_a_single_claim_is_its_own_sentence() -> None:
    answer = "Every full-time employee gets 28 days of paid annual leave per year [1]."
    (citation,) = build_citations(answer, [passage(1, HANDBOOK)])
    assert citation.quote == "Every full-time employee gets 28 days of paid annual leave per year."
