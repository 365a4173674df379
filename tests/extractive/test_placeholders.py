"""Blank, redacted and placeholder values are never an answer's value (pure)."""

from __future__ import annotations

import pytest

from answer_factories import passage
from citewise.extractive.compose import ExtractiveResult
from citewise.extractive.placeholders import (
    LABELS,
    answer_units,
    blanked,
    counted_blank,
    leaves_blank,
    placeholder,
)
from citewise.question.analysis import analyse


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Distributor shall pay $[***] per unit.", "redacted"),
        ("a royalty of [***] of Net Sales", "redacted"),
        ("The fee is ***.", "redacted"),
        ("The price is [REDACTED].", "redacted"),
        ("governed by the laws of the State of [Fill in state]", "blank"),
        ("a discount of ¨% on list prices", "blank"),
        ("Check here: [ ] if exempt", "blank"),
        ("Dated: ____________", "blank"),
        ("[insert date of signature]", "blank"),
        ("The default is 128 and ** is the power operator.", None),
        ("Copyright [yyyy] [name of copyright owner]", "blank"),
        ("Copyright 2024 [yyyy]", None),
        ("If to Licensor: Akai Studio LLC, [ADDRESS], Attention: A. Fowler", "blank"),
        ("ACTION PLAN DATED___________", "blank"),
        ("See clause [A] above.", None),
        ("a list [1, 2, 3] of numbers", None),
    ],
)
def test_placeholders_are_told_apart_from_values(text: str, kind: str | None) -> None:
    assert placeholder(text) == kind


@pytest.mark.parametrize(
    ("question", "sentence", "blank"),
    [
        (
            "How much must the Distributor pay for each unit?",
            "Distributor shall pay $[***] per unit within thirty (30) days.",
            "redacted",
        ),
        ("What is the royalty rate?", "Licensee pays a royalty of ¨% of Net Sales.", "blank"),
        (
            "Which state law governs the agreement?",
            "This Agreement is governed by the laws of the State of [Fill in state].",
            "blank",
        ),
        # the placeholder is not what is asked: the days are stated
        (
            "Within how many days must the distributor pay?",
            "Distributor shall pay $[***] per unit within thirty (30) days.",
            None,
        ),
        ("What is the notice period?", "Either party may terminate on 90 days' notice.", None),
        # a defined term in quotes is not the value: the definition is redacted
        ("What software is licensed?", "“Software” means [****].", "redacted"),
    ],
)
def test_an_asked_value_left_as_a_placeholder_is_blank(
    question: str, sentence: str, blank: str | None
) -> None:
    assert leaves_blank(question, analyse(question).answer_type, [sentence]) == blank


def test_a_value_stated_about_something_else_does_not_fill_the_asked_blank() -> None:
    question = "What is the date of the dealer action plan?"
    kind = analyse(question).answer_type
    agreement = "This Exhibit is part of the Agreement dated April 1, 1996."
    plan = "DEALER ACTION PLAN DATED ___________ attached hereto as Exhibit 1."
    assert leaves_blank(question, kind, [agreement, plan]) == "blank"
    assert leaves_blank(question, kind, [plan]) == "blank"  # "Exhibit 1" is not its date
    # the plan's own date stated elsewhere fills it
    dated = "The dealer action plan is dated May 2, 1996."
    assert leaves_blank(question, kind, [dated, plan]) is None


def test_a_blank_answer_becomes_a_labelled_cited_passage() -> None:
    answer = ExtractiveResult("Distributor shall pay $[***] per unit [1].", (), (0.9,), False)
    shown = blanked(answer, analyse("How much does the Distributor pay per unit?"))
    assert (shown.kind, shown.label) == ("passage", LABELS["redacted"])
    assert shown.text == answer.text  # the sentence itself is shown, with its citation
    stated = ExtractiveResult("Distributor shall pay $12 per unit [1].", (), (0.9,), False)
    assert blanked(stated, analyse("How much does the Distributor pay per unit?")) == stated


def test_a_count_asked_for_that_stands_redacted_before_its_noun_is_not_stated() -> None:
    text = "Licensee shall pay a fee of (a) [****] shares of common stock, par value $0.00001 [1]."
    answer = ExtractiveResult(text, (), (0.9,), False)
    shown = blanked(answer, analyse("How many shares does the Licensor receive?"))
    assert (shown.kind, shown.label) == ("passage", LABELS["redacted"])
    # the par value is a number, but not the count of shares asked for
    assert counted_blank("How many shares does it get?", ["[***] shares, par value $1"])
    assert counted_blank("How many shares does it get?", ["100 shares, par value $1"]) is None
    assert counted_blank("How many days does it last?", ["[***] shares"]) is None


def test_the_line_a_lead_in_introduces_is_read_for_a_placeholder() -> None:
    context = (
        "Notices to Licensor shall be addressed as follows:\nAkai Studio LLC\n[ADDRESS]\n"
        "Attention: Managing Director"
    )
    answer = ExtractiveResult(
        "Notices to Licensor shall be addressed as follows: Akai Studio LLC [1]",
        (passage(1, context),), (0.9,), False,
    )  # fmt: skip
    shown = blanked(answer, analyse("What is Akai Studio's mailing address for notices?"))
    assert (shown.kind, shown.label) == ("passage", LABELS["blank"])
    filled = context.replace("[ADDRESS]", "12 Main Street, Springfield")
    stated = ExtractiveResult(answer.text, (passage(1, filled),), (0.9,), False)
    assert blanked(stated, analyse("What is Akai Studio's mailing address?")).kind == "answer"


def test_an_answer_is_read_unit_by_unit_at_its_citation_marks() -> None:
    assert answer_units("A is due: Akai LLC [1] B is due [2].") == [
        "A is due: Akai LLC",
        "B is due",
    ]
