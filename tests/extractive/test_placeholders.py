"""Blank, redacted and placeholder values are never an answer's value (pure)."""

from __future__ import annotations

import pytest

from citewise.extractive.compose import ExtractiveResult
from citewise.extractive.placeholders import LABELS, blanked, leaves_blank, placeholder
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


def test_a_blank_answer_becomes_a_labelled_cited_passage() -> None:
    answer = ExtractiveResult("Distributor shall pay $[***] per unit [1].", (), (0.9,), False)
    shown = blanked(answer, analyse("How much does the Distributor pay per unit?"))
    assert (shown.kind, shown.label) == ("passage", LABELS["redacted"])
    assert shown.text == answer.text  # the sentence itself is shown, with its citation
    stated = ExtractiveResult("Distributor shall pay $12 per unit [1].", (), (0.9,), False)
    assert blanked(stated, analyse("How much does the Distributor pay per unit?")) == stated
