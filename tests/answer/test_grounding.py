from __future__ import annotations

from answer_factories import passage
from citewise.answer.grounding import (
    RECITE_JUDGED,
    SUPPORTED_AT,
    UNSUPPORTED_BELOW,
    check_answer,
    check_sentence,
    invented_values,
)

LOGGING = passage(
    1,
    "The default level is WARNING, which means that only events of this level and above "
    "will be tracked, unless the logging package is configured to do otherwise.",
    source="howto/logging.html",
)
PICKLE = passage(
    2,
    "pickle.DEFAULT_PROTOCOL: an integer, the default protocol version used for pickling. "
    "Currently the default protocol is 4, first introduced in Python 3.4.",
    source="library/pickle.html",
    section="pickle > Module Interface",
)


class FixedJudge:
    def __init__(self, verdict: bool | None) -> None:
        self.verdict = verdict
        self.calls: list[tuple[str, str]] = []

    def judge(self, sentence: str, evidence: str) -> bool | None:
        self.calls.append((sentence, evidence))
        return self.verdict


def test_verbatim_sentence_is_supported() -> None:
    s = check_sentence("The default level is WARNING [1].", [LOGGING])
    assert s.verdict == "supported"
    assert s.score >= SUPPORTED_AT


def test_sentence_with_value_absent_from_cited_passage_is_unsupported() -> None:
    s = check_sentence("Currently the default protocol is 5 [2].", [PICKLE])
    assert s.verdict == "unsupported"
    assert s.missing == ("5",)


def test_value_present_only_in_another_passage_is_still_unsupported() -> None:
    s = check_sentence("The default level is WARNING since Python 3.4 [1].", [LOGGING])
    assert s.verdict == "unsupported"
    assert s.missing == ("3.4",)


def test_sentence_about_something_else_is_unsupported() -> None:
    s = check_sentence("Tuples are immutable sequences of heterogeneous items [1].", [LOGGING])
    assert s.verdict == "unsupported"
    assert s.score < UNSUPPORTED_BELOW


def test_uncited_claim_is_unsupported() -> None:
    assert check_sentence("The default level is WARNING.", []).verdict == "unsupported"


def test_paraphrase_is_uncertain_without_judge_and_judged_with_one() -> None:
    sentence = "Only warnings and more severe events get tracked by default [1]."
    assert check_sentence(sentence, [LOGGING]).verdict == "uncertain"
    yes, no, unsure = FixedJudge(True), FixedJudge(False), FixedJudge(None)
    assert check_sentence(sentence, [LOGGING], yes).verdict == "supported"
    assert check_sentence(sentence, [LOGGING], no).verdict == "unsupported"
    assert check_sentence(sentence, [LOGGING], unsure).verdict == "uncertain"
    assert yes.calls and "WARNING" in yes.calls[0][1]


def test_judge_is_not_asked_about_clear_cases() -> None:
    judge = FixedJudge(False)
    check_sentence("The default level is WARNING [1].", [LOGGING], judge)
    check_sentence("The default protocol is 5 [2].", [PICKLE], judge)
    assert judge.calls == []


def test_answer_drops_unsupported_sentences_and_reports_not_grounded() -> None:
    text = (
        "The default level is WARNING [1]. Currently the default protocol is 4 [2]. "
        "The default protocol will be 6 in Python 3.14 [2]."
    )
    report = check_answer(text, [LOGGING, PICKLE])
    assert [s.verdict for s in report.sentences] == ["supported", "supported", "unsupported"]
    assert not report.grounded
    assert report.supported_text == (
        "The default level is WARNING [1]. Currently the default protocol is 4 [2]."
    )
    assert report.unsupported == ("The default protocol will be 6 in Python 3.14 [2].",)


def test_sentence_without_marker_is_checked_against_the_next_citation() -> None:
    text = "The default level is WARNING. Only events of this level and above are tracked [1]."
    report = check_answer(text, [LOGGING, PICKLE])
    assert report.grounded
    assert report.sentences[0].cited == (1,)


def test_grounded_answer_keeps_its_text() -> None:
    report = check_answer("The default level is WARNING [1].", [LOGGING])
    assert report.grounded
    assert report.supported_text == "The default level is WARNING [1]."
    assert report.strengths and report.strengths[0] >= SUPPORTED_AT


def test_empty_answer_is_not_grounded() -> None:
    assert not check_answer("", [LOGGING]).grounded


def test_value_named_in_the_cited_section_heading_counts_as_present() -> None:
    p = passage(
        1,
        "If no encoding declaration is found, the default encoding is UTF-8.",
        section="Lexical analysis > 2.1.4. Encoding declarations",
    )
    assert check_sentence("Section 2.1.4: the default encoding is UTF-8 [1].", [p]).missing == ()
    assert check_sentence("Section 2.1.5: the default encoding is UTF-8 [1].", [p]).missing == (
        "2.1.5",
    )


def test_invented_values_names_a_value_absent_from_the_sentences_own_passage() -> None:
    cited = {1: LOGGING.context, 2: PICKLE.context}
    assert invented_values("The default protocol is 4 [2]. The level is WARNING [1].", cited) == []
    assert invented_values("The default protocol is 4 [1].", cited) == ["4"]
    assert invented_values("Version 3.4 added it.", cited) == []  # no marker: all cited
    assert invented_values("It needs Python 3.9 [2].", cited) == ["3.9"]


TABLE = passage(
    3,
    "| Parameter | Default | Range |\n| --- | --- | --- |\n"
    "| max_connections | 100 | 1 to 262143 |\n| shared_buffers | 128MB | 128kB and up |",
    source="runtime-config.html",
    section="Connections",
)


def llm_check(text: str, judge: FixedJudge | None = None, question: str = "") -> object:
    return check_answer(
        text, [LOGGING, PICKLE, TABLE], judge, question=question, terms=True, repair=True
    )


def test_an_invented_name_in_a_near_verbatim_sentence_is_unsupported() -> None:
    report = check_answer(
        "The default level is WARNING, unless the Zorbaquin package is configured otherwise [1].",
        [LOGGING, PICKLE],
        FixedJudge(True),
        terms=True,
    )
    assert report.sentences[0].verdict == "unsupported"
    assert "Zorbaquin" in report.sentences[0].missing


def test_a_made_up_word_is_invented_and_a_paraphrase_word_goes_to_the_judge() -> None:
    invented = FixedJudge(True)
    text = (
        "The default level is WARNING, so only events of this level and phoulmrin are tracked [1]."
    )
    report = check_answer(text, [LOGGING], invented, terms=True)
    # no English word and no form of a word shown: invented, whatever a judge would say
    assert report.sentences[0].verdict == "unsupported" and not invented.calls
    assert report.sentences[0].missing == ("phoulmrin",)
    paraphrase = FixedJudge(True)
    text = "The default level is WARNING, so only events of this level and higher are tracked [1]."
    report = check_answer(text, [LOGGING], paraphrase, terms=True)
    assert report.sentences[0].verdict == "supported" and len(paraphrase.calls) == 1


def test_a_name_from_the_question_is_not_invented() -> None:
    text = "On Debian the default protocol is 4 [2]."
    assert check_answer(text, [PICKLE], terms=True).sentences[0].missing == ("Debian",)
    report = check_answer(text, [PICKLE], question="Which protocol does Debian use?", terms=True)
    assert report.sentences[0].verdict != "unsupported"


def test_a_right_claim_citing_the_wrong_passage_is_recited_to_the_right_one() -> None:
    report = llm_check("Currently the default protocol is 4, first introduced in Python 3.4 [1].")
    s = report.sentences[0]
    assert s.verdict == "supported" and s.recited and s.cited == (2,)
    assert report.supported_text.endswith("3.4 [2].")


def test_a_claim_no_passage_supports_is_dropped_not_recited() -> None:
    report = llm_check("The default protocol is 7 [1]. The default level is WARNING [1].")
    assert [s.verdict for s in report.sentences] == ["unsupported", "supported"]
    assert report.supported_text == "The default level is WARNING [1]."


def test_a_table_row_supports_a_claim_whose_label_and_value_sit_in_different_cells() -> None:
    report = llm_check("The default of max_connections is 100 [3].")
    assert report.sentences[0].verdict == "supported"
    wrong = llm_check("The default of max_connections is 200 [3].")
    assert wrong.sentences[0].verdict == "unsupported"


def test_the_extractive_check_is_unchanged_without_terms() -> None:
    text = "The default level is WARNING, unless the Zorbaquin package is configured otherwise [1]."
    s = check_answer(text, [LOGGING]).sentences[0]
    assert s.verdict != "unsupported" and not s.missing


def test_a_spelled_out_number_the_passage_lacks_is_unsupported() -> None:
    five = passage(1, "Offer spare parts for at least three years after the last sale.")
    wrong = check_answer("Spare parts for at least six years [1].", [five], terms=True)
    assert wrong.sentences[0].verdict == "unsupported" and wrong.sentences[0].missing == ("six",)
    right = check_answer("Spare parts for at least 3 years [1].", [five], terms=True)
    assert right.sentences[0].verdict != "unsupported"


def test_repair_prefers_a_passage_that_clearly_supports_over_a_closer_uncertain_one() -> None:
    near = passage(1, "The license steward publishes new versions of this License.")
    exact = passage(3, "Mozilla Foundation is the license steward.")
    elsewhere = passage(2, "Uploads larger than 25 MB are rejected.")
    report = check_answer(
        "The Mozilla Foundation is the license steward [2].",
        [near, elsewhere, exact],
        FixedJudge(False),
        terms=True,
        repair=True,
    )
    assert report.supported_text == "The Mozilla Foundation is the license steward [3]."


class JudgeConfirming:
    """Confirms a claim only against evidence holding `phrase`."""

    def __init__(self, phrase: str) -> None:
        self.phrase = phrase
        self.calls: list[str] = []

    def judge(self, sentence: str, evidence: str) -> bool | None:
        self.calls.append(evidence)
        return self.phrase in evidence


VENV = [
    passage(1, "The venv module creates virtual environments in a directory you choose."),
    passage(2, "A virtual environment directory can live anywhere in the project tree."),
    passage(3, "A common name for the virtual environment directory is .venv, hidden in shells."),
    passage(4, "Uploads larger than 25 MB are rejected with status 413."),
]


def test_a_claim_the_judge_rejects_where_it_points_is_recited_to_a_passage_it_confirms() -> None:
    judge = JudgeConfirming("common name")
    claim = "The conventional virtual environment directory name is .venv, hidden in shells [1]."
    report = check_answer(claim, VENV, judge, terms=True, repair=True)
    s = report.sentences[0]
    assert s.verdict == "supported" and s.recited and s.cited == (3,), s
    assert report.supported_text.endswith("[3].")
    assert len(judge.calls) <= 1 + RECITE_JUDGED


def test_a_claim_no_judge_confirms_anywhere_is_dropped_after_a_few_questions() -> None:
    judge = JudgeConfirming("nowhere")
    claim = "The conventional virtual environment directory name is .venv, hidden in shells [1]."
    report = check_answer(claim, VENV, judge, terms=True, repair=True)
    assert report.sentences[0].verdict == "unsupported" and report.supported_text == ""
    assert 1 < len(judge.calls) <= 1 + RECITE_JUDGED
