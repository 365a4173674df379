"""Repairs of an LLM's sentence before it is dropped: re-cited to the passage that supports
it, and a clause stating what no passage shown holds cut."""

from __future__ import annotations

from answer_factories import passage
from citewise.answer.grounding import check_answer
from citewise.answer.lexical import Evidence
from citewise.answer.repair import without_foreign_clauses

CHUBBY = passage(
    1,
    "The master may extend the timeout by any amount. The default extension is 12s, but an "
    "overloaded master may use higher values to reduce the number of KeepAlive calls.",
)
UNRELATED = passage(2, "Uploads larger than 25 MB are rejected with status 413.")
REPEAT = passage(4, "-r N, --repeat=N: how many times to repeat the timer (default 5).")


class Judge:
    def __init__(self, verdict: bool) -> None:
        self.verdict = verdict
        self.calls = 0

    def judge(self, sentence: str, evidence: str) -> bool | None:
        self.calls += 1
        return self.verdict


def llm_check(text: str, passages: list[object], judge: Judge | None = None) -> object:
    return check_answer(text, passages, judge, terms=True, repair=True)  # type: ignore[arg-type]


def test_a_clause_stating_a_value_nothing_shown_holds_is_cut_and_the_rest_kept() -> None:
    text = (
        "The default extension is 12s; an overloaded master may use higher values (up to 60s) [1]."
    )
    report = check_answer(text, [CHUBBY, UNRELATED], Judge(True), terms=True, repair=True)
    s = report.sentences[0]
    assert s.verdict != "unsupported" and s.trimmed
    assert report.supported_text == (
        "The default extension is 12s; an overloaded master may use higher values [1]."
    )


def test_an_invented_value_goes_with_its_clause() -> None:
    text = "The default extension is 19s; an overloaded master may use higher values [1]."
    report = check_answer(text, [CHUBBY, UNRELATED], Judge(True), terms=True, repair=True)
    assert "19s" not in report.supported_text
    alone = check_answer("The default extension is 19s [1].", [CHUBBY], terms=True, repair=True)
    assert alone.supported_text == "" and alone.sentences[0].verdict == "unsupported"


def test_clauses_are_cut_at_semicolons_colons_and_asides_only() -> None:
    known = Evidence.of([CHUBBY.context])
    assert without_foreign_clauses("The default extension is 12s.", known) is None
    assert without_foreign_clauses("70s: the default extension is 12s.", known) == (
        "The default extension is 12s."
    )
    assert without_foreign_clauses("The default extension, 70s, is 12s.", known) is None


def test_a_wrong_citation_goes_to_the_one_passage_that_supports_the_sentence() -> None:
    text = "The default extension is 12s, but an overloaded master may use higher values [2]."
    s = check_answer(text, [UNRELATED, CHUBBY, REPEAT], terms=True, repair=True).sentences[0]
    assert s.cited == (1,) and s.verdict == "supported"
