from __future__ import annotations

from dataclasses import replace

from answer_factories import passage
from citewise.extractive.compose import ScoredSentence
from citewise.extractive.outcome import (
    Calibration,
    OutcomeFeatures,
    closest_passage,
    features_of,
    shows_passage,
    states_confidently,
)
from citewise.question.analysis import analyse


def _features(coverage_top: float, best_evidence: float = 0.3) -> OutcomeFeatures:
    return OutcomeFeatures(best_evidence, 0.4, 0.4, coverage_top, coverage_top, 1.0, 0.0, 1.0)


def test_uncalibrated_embedder_shows_passage_when_top_passages_hold_the_question_words() -> None:
    assert shows_passage(_features(0.8), "an-unknown-embedder")
    assert not shows_passage(_features(0.2), "an-unknown-embedder")


def test_calibration_probability_rises_with_its_weighted_features() -> None:
    calibration = Calibration({"coverage_top": 4.0}, bias=-2.0)
    assert calibration.probability(_features(0.9)) > 0.5 > calibration.probability(_features(0.1))


def test_closest_passage_is_the_best_sentences_window_with_citations() -> None:
    sentences = [
        "Leave is booked in the HR portal.",
        "Every employee gets 28 days of paid annual leave.",
        "Unused days expire in March.",
    ]
    p = passage(1, " ".join(sentences))
    best = ScoredSentence(p, 1, sentences[1], frozenset(), 0.6, 0.2, 0.45)
    other = ScoredSentence(p, 2, sentences[2], frozenset(), 0.3, 0.0, 0.2)
    result = closest_passage([other, best], {1: sentences}, 0.45)
    assert result.kind == "passage" and not result.abstained
    assert "28 days of paid annual leave" in result.text and "[1]" in result.text
    assert result.text.startswith("Leave is booked")


def test_an_answer_is_confident_without_an_answer_calibration() -> None:
    from citewise.extractive.outcome import states_confidently

    assert states_confidently(_features(0.0, best_evidence=0.0), "an-unknown-embedder")


def test_the_shipped_answer_calibration_doubts_weak_evidence_and_trusts_strong() -> None:
    from citewise.extractive.outcome import states_confidently

    weak = OutcomeFeatures(0.1, 0.1, 0.1, 0.1, 0.1, 0.0, 0.0, 1.0)
    strong = OutcomeFeatures(1.0, 0.8, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0)
    assert not states_confidently(weak, "all-MiniLM-L6-v2")
    assert states_confidently(strong, "all-MiniLM-L6-v2")


def test_closest_passage_within_a_passage_takes_that_passages_best_sentence() -> None:
    first = passage(1, "Leave is booked in the HR portal. Every employee gets 28 days.")
    other = passage(2, "Annual leave rules are described in the handbook.")
    split = {1: ["Leave is booked in the HR portal.", "Every employee gets 28 days."],
             2: ["Annual leave rules are described in the handbook."]}  # fmt: skip
    strong = ScoredSentence(other, 0, split[2][0], frozenset(), 0.7, 0.3, 0.6)
    days = ScoredSentence(first, 1, split[1][1], frozenset(), 0.5, 0.2, 0.4)
    assert "handbook" in closest_passage([strong, days], split, 0.6).text
    result = closest_passage([strong, days], split, 0.6, within=1)
    assert "28 days" in result.text and result.used_passages == (first,)


LEAVE_2019 = "In 2019 every employee got 28 days of paid leave."


def _scored_leave(question: str) -> OutcomeFeatures:
    p = passage(1, f"Leave is booked in the HR portal. {LEAVE_2019}")
    best = ScoredSentence(p, 1, LEAVE_2019, frozenset(), 0.7, 0.6, 0.65)
    other = ScoredSentence(p, 0, "Leave is booked in the HR portal.", frozenset(), 0.4, 0.2, 0.3)
    return features_of(analyse(question), [p], [other, best])


def test_a_question_about_another_year_than_the_passage_states_holds_no_specific() -> None:
    near_miss = _scored_leave("How many days of paid leave did employees get in 2021?")
    stated = _scored_leave("How many days of paid leave did employees get in 2019?")
    assert near_miss.specifics_passage == 0.0 and stated.specifics_passage == 1.0


def test_a_question_with_no_scored_sentence_has_no_evidence() -> None:
    f = features_of(analyse("How many days?"), [passage(1, "Text.")], [])
    assert all(v == 0.0 for _, v in f.items())


def test_an_answer_to_a_question_about_another_year_is_shown_as_the_closest_passage() -> None:
    from citewise.extractive.compose import ExtractiveResult
    from citewise.extractive.outcome import unsure

    question = "How many days of paid leave did employees get in 2021?"
    evidence = _scored_leave(question).items()
    answer = ExtractiveResult(LEAVE_2019, (), (0.65,), False, evidence=evidence)
    shown = unsure(answer, analyse(question), "all-MiniLM-L6-v2", doubt=True)
    assert shown.kind == "passage" and shown.text == LEAVE_2019


def test_an_answer_whose_passage_names_the_asked_year_stays_an_answer() -> None:
    from citewise.extractive.compose import ExtractiveResult
    from citewise.extractive.outcome import unsure

    question = "How many days of paid leave did employees get in 2019?"
    evidence = _scored_leave(question).items()
    answer = ExtractiveResult(LEAVE_2019, (), (0.65,), False, evidence=evidence)
    assert unsure(answer, analyse(question), "all-MiniLM-L6-v2", doubt=True).kind == "answer"


def test_a_first_passage_stating_the_fact_is_shown_rather_than_none() -> None:
    stated = _scored_leave("How many days of paid leave did employees get in 2019?")
    assert shows_passage(stated, "all-MiniLM-L6-v2")
    near_miss = _scored_leave("How many days of paid leave did employees get in 2021?")
    assert shows_passage(near_miss, "all-MiniLM-L6-v2")  # a near miss: labelled, not hidden


def test_the_best_passage_s_ask_words_and_framing_are_evidence() -> None:
    preamble = passage(
        1,
        "This Agreement is made and entered into by and between Rock Energy Resources, Inc. "
        '("Company") and Tom Elliott ("Executive").',
    )
    salary = passage(2, "The Company shall pay Elliott a salary of $280,000 per annum.")

    def evidence(question: str, p: object) -> OutcomeFeatures:
        assert isinstance(p, type(salary))
        best = ScoredSentence(p, 0, p.context, frozenset(), 0.6, 0.5, 0.5)
        return features_of(analyse(question), [p], [best])

    bonus = evidence("What is Tom Elliott's annual bonus target at Rock Energy?", salary)
    pay = evidence("What salary does Rock Energy pay Tom Elliott?", salary)
    assert bonus.ask_in_best < 0.5 and pay.ask_in_best == 1.0
    assert evidence("What salary does Tom Elliott get?", preamble).framing_best == 1.0
    # a question about the parties is answered by the preamble
    assert evidence("Who are the parties to the agreement?", preamble).framing_best == 0.0


def test_an_answer_from_a_framing_block_not_asked_about_is_not_confident() -> None:
    framed = OutcomeFeatures(1.0, 0.8, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    assert not states_confidently(framed, "all-MiniLM-L6-v2")
    assert states_confidently(replace(framed, framing_best=0.0), "no-calibration")


def test_an_answer_stating_another_attribute_s_value_is_shown_as_the_closest_passage() -> None:
    from citewise.extractive.compose import ExtractiveResult
    from citewise.extractive.outcome import unsure

    question = "How many days of paid leave did employees get in 2019?"
    evidence = _scored_leave(question).items()
    visitors = "In 2019 the office hosted 12 visitors [1]."
    answer = ExtractiveResult(visitors, (), (0.65,), False, evidence=evidence)
    shown = unsure(answer, analyse(question), "all-MiniLM-L6-v2", doubt=True)
    assert shown.kind == "passage" and shown.text == visitors
