"""Contract clauses and slides as reading units: a clause's label ("(c) ", "(iii) ") opens
prose, not code; a page number between a lead-in and its items is page furniture; a clause's
run-in heading is no answer; a bulleted lead-in keeps its items; a name is no focus."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from answer_factories import passage
from citewise.extractive.answerer import _sentences
from citewise.extractive.bullets import is_run_in_heading, titled
from citewise.extractive.candidates import CandidateSentence, stems_of
from citewise.extractive.compose import ANAPHOR, ScoredSentence, compose
from citewise.extractive.options import MISSING_NAME_PENALTY, ExtractiveOptions
from citewise.extractive.prose_candidates import framing_only
from citewise.extractive.sentence_fit import asked_focus
from citewise.extractive.sentence_scores import ask_weights, score_sentences
from citewise.extractive.units import (
    is_code_line,
    is_page_line,
    is_prose,
    join_marked,
    lead_in_end,
    without_anchors,
)
from citewise.question.analysis import analyse
from citewise.types import Passage
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


def test_a_clause_s_run_in_heading_is_no_titled_answer() -> None:
    assert is_run_in_heading("Section 4.") and is_run_in_heading("Governing Law.")
    assert is_run_in_heading("(c) Performance of Duties.")
    assert not is_run_in_heading("Use HTTPS.")  # a slide's advice
    assert not is_run_in_heading("A9 – Insufficient Transport Layer Protection")
    assert titled("Section 4.", "EMPLOYMENT AGREEMENT") is None
    assert titled("150–300 ms, chosen at random", "Raft > Election timeout") is not None


def test_a_name_the_question_asks_by_is_no_focus() -> None:
    assert asked_focus(analyse("How many Rock Energy shares does Tom Elliott get?")) is None
    assert asked_focus(analyse("What is the default size of the pool?")) == "siz"  # a stem


def test_a_bulleted_lead_in_keeps_the_items_it_introduces() -> None:
    lines = ["- It is ranked #3 because:", "- It topped the survey", "- Attacks grow", "- Other"]
    assert lead_in_end(lines, 0) == 4
    assert lead_in_end(lines, 1) == 2  # an item does not bring its siblings


PREAMBLE = (
    "THIS AGREEMENT made the 1st day of April, 1996, between BLAW KNOX CONSTRUCTION EQUIPMENT "
    'CORPORATION ("BLAW-KNOX") and Western Traction Company, Inc. ("DISTRIBUTOR").'
)


def test_a_preamble_answers_only_about_the_parties() -> None:
    assert framing_only("What events must Western Traction attend?", PREAMBLE, "AGREEMENT")
    assert not framing_only("Who are the parties to the agreement?", PREAMBLE, "AGREEMENT")
    clause = "(iii) DISTRIBUTOR shall display the EQUIPMENT at the most suitable exhibitions."
    assert not framing_only("What events must Western Traction attend?", clause, "AGREEMENT")


def test_the_clause_answers_rather_than_the_preamble_naming_the_parties() -> None:
    a, _ = answerer()
    preamble = passage(1, PREAMBLE, section="SALES & SERVICE AGREEMENT")
    clause = passage(
        2,
        "In order to give adequate representation, DISTRIBUTOR shall:\n"
        "(i) advertise the EQUIPMENT in the Press and Trade Journals.\n"
        "(ii) display the EQUIPMENT in the most suitable exhibitions in the TERRITORY.",
        section="3. PROMOTIONAL OBLIGATIONS",
    )
    r = a.answer("At which exhibitions must BLAW-KNOX EQUIPMENT be displayed?", [preamble, clause])
    assert not r.abstained
    assert "exhibitions" in r.text and "1st day of April" not in r.text


def test_a_document_s_title_under_a_heading_is_no_answer() -> None:
    assert titled("The Software Support and Maintenance Agreement", "Developer Guide") is None
    assert titled("The timeout is 150–300 ms", "Raft > Election timeout") is not None


def test_a_name_that_named_the_document_is_not_missing_from_its_clauses() -> None:
    clause = passage(1, "DISTRIBUTOR shall display the EQUIPMENT at suitable exhibitions.")
    question = "At which events must Western Traction display the equipment?"
    a, _ = answerer(threshold=0.0, lexical_weight=0.0)  # the penalty alone
    alone = a.answer(question, [clause])
    names = frozenset({"western", "traction"})
    named, _ = answerer(threshold=0.0, lexical_weight=0.0, document_names=names)
    chosen = named.answer(question, [clause])
    assert chosen.best_score == pytest.approx(alone.best_score + 2 * MISSING_NAME_PENALTY)


def test_a_slide_s_symbol_font_glyphs_are_not_shown() -> None:
    assert join_marked(["A2 \uf0e0 A3 moved up."], 1) == "A2 → A3 moved up [1]."
    assert without_anchors("Installation¶ \uf04a done") == "Installation done"
    assert without_anchors("see ¶ 12") == "see ¶ 12"  # a paragraph's number stays


def test_the_word_overlap_reads_the_ask_not_the_names_that_chose_the_document() -> None:
    weights = {"state": 1.0, "law": 2.0, "govern": 1.5, "employe": 0.5, "safavi": 3.0}
    asked = ask_weights(weights, ("safavi", "Employee"))
    assert set(asked) == {"state", "law", "govern"}
    assert ask_weights({"safavi": 3.0}, ("safavi",)) == {"safavi": 3.0}  # all it has
    assert ask_weights(weights, ()) == weights


def test_a_sentence_naming_the_agreement_itself_does_not_pull_in_the_one_before() -> None:
    assert ANAPHOR.match("This module provides access to the system.")
    assert not ANAPHOR.match("This Employment Agreement shall be governed by Texas law.")
    a, _ = answerer()
    p = passage(1, "Governing Law.\nThis Agreement shall be governed by the laws of Texas.")
    r = a.answer("Which state's laws govern this agreement?", [p])
    assert r.text.startswith("This Agreement shall be governed")


def test_a_slide_s_title_words_count_for_every_bullet_under_it() -> None:
    section = "Slide 29 > A03:2025 Software Supply Chain Failures"
    why = passage(1, "- It is ranked #3 because:\n- It topped the survey", section=section)
    opts = ExtractiveOptions(lexical_weight=1.0, cosine_weight=0.0)
    a = analyse("Why is supply chain ranked third?")
    cands = [
        CandidateSentence(
            why, 0, "It is ranked #3 because: It topped the survey", 1.0, frozenset(), False
        )
    ]
    cands = [replace(cands[0], stems=frozenset(stems_of(cands[0].text)))]
    vectors = np.zeros((1, 2), dtype=np.float32)
    shared = score_sentences(a, cands, vectors, np.zeros(2, dtype=np.float32), opts)[0]
    alone = score_sentences(
        a, cands, vectors, np.zeros(2, dtype=np.float32), replace(opts, heading_is_subject=False)
    )[0]
    assert shared.score > alone.score  # "supply", "chain" from the title …
    assert shared.score - shared.prior == pytest.approx(alone.score - alone.prior)  # a prior


def _scored(p: Passage, index: int, text: str, score: float) -> ScoredSentence:
    return ScoredSentence(p, index, text, frozenset(), score, 0.0, score)


def test_the_answer_starts_with_the_sentence_that_answers() -> None:
    lines = ["Support is offered by email.", "Fees are due monthly.", "Support runs 9 to 5."]
    p = passage(1, "\n".join(lines))
    split = {1: lines}
    best, early = _scored(p, 2, lines[2], 1.0), _scored(p, 0, lines[0], 0.9)
    apart = compose([best, early], split, split, 1.0).text
    assert apart.startswith("Support runs 9 to 5")  # a runner-up apart from it follows
    joined = {1: [lines[0], lines[2]]}
    best, early = _scored(p, 1, lines[2], 1.0), _scored(p, 0, lines[0], 0.9)
    together = compose([best, early], joined, joined, 1.0).text
    assert together.startswith("Support is offered")  # … one running on into it leads


def test_a_sentence_does_not_bring_along_the_next_clause_s_heading() -> None:
    lines = ["Employee shall serve as Executive Chairman.", "(c) Performance of Duties.", "X."]
    assert lead_in_end(lines, 0) == 1
    assert lead_in_end(["The marker.", "- LF on POSIX", "Next."], 0) == 2  # a bullet still does
