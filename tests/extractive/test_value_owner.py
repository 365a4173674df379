from __future__ import annotations

from citewise.extractive.value_owner import states_other_value

BONUS = "What is the executive's annual bonus target?"
SIGNED = "On what date did the tenant sign the lease?"


def test_a_salary_sentence_states_another_attribute_than_the_bonus_asked() -> None:
    salary = "The Company shall pay the Executive a base salary of $180,000 per year [1]."
    assert states_other_value(BONUS, "value", salary)


def test_a_sentence_stating_the_bonus_states_the_value_asked() -> None:
    bonus = "The Executive's annual bonus target is 40% of the base salary [1]."
    assert not states_other_value(BONUS, "value", bonus)


def test_an_effective_date_is_not_the_signing_date_asked_for() -> None:
    preamble = "This Lease is entered into as of March 3, 2019 [1]."
    assert states_other_value(SIGNED, "time", preamble)


def test_an_inflection_of_the_asked_word_owns_the_value() -> None:
    signed = "The tenant signed this Lease on March 5, 2019 [1]."
    by_signature = "Effective upon signature on March 5, 2019 [1]."
    assert not states_other_value(SIGNED, "time", signed)
    assert not states_other_value(SIGNED, "time", by_signature)


def test_an_answer_stating_no_value_or_only_the_question_s_own_is_left_alone() -> None:
    question = "How many days of paid leave did employees get in 2019?"
    assert not states_other_value(BONUS, "value", "The bonus is paid in cash [1].")
    assert not states_other_value(question, "number", "In 2019 the office moved [1].")
    assert states_other_value(question, "number", "In 2019 the office hosted 12 visitors [1].")


def test_what_a_how_many_question_counts_owns_the_count_even_spelt_as_a_name() -> None:
    question = "How many GPUs did the lab train on in 2023?"
    assert not states_other_value(question, "number", "Training in 2023: 512 GPUs [1].")


def test_a_question_not_wanting_a_value_is_left_alone() -> None:
    salary = "The Company shall pay the Executive a base salary of $180,000 per year [1]."
    assert not states_other_value("Why is the annual bonus deferred?", "reason", salary)
