from __future__ import annotations

from citewise.extractive.polarity import negated, polarity

TRIP = "Who approves my trip if it isn't billable to a project?"


def test_negated_words_are_those_next_to_a_negation_or_negated_by_un() -> None:
    assert "billabl" in negated("If your travel is non-billable, ask your supervisor.")
    assert "billabl" in negated("if it isn't billable")
    assert {"default", "given"} <= negated("If default is not given, it defaults to None.")
    assert "bound" in negated("How do I make it unbounded?")
    assert negated("The cache holds 128 entries.") == set()


def test_a_sentence_of_the_question_s_negated_case_agrees_and_the_opposite_case_clashes() -> None:
    assert polarity(TRIP, "If your travel is non-billable, your supervisor approves it.") == 1.0
    assert polarity(TRIP, "If your travel is billable, the Account Manager approves it.") < 0
    assert polarity("How do I make it unbounded?", "It can grow without bound.") == 1.0


def test_negating_a_word_the_question_affirms_clashes_half_as_much() -> None:
    q = "Do dictionaries remember the order of keys?"
    assert polarity(q, "Updating does not change the order.") == -0.5
    assert polarity(q, "Dictionaries preserve insertion order.") == 0.0
