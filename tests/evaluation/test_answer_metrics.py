"""Answer metrics on plain values."""

from __future__ import annotations

from citewise.evaluation.answers import (
    contains_all,
    score_answer,
    states_value,
    summarize_answers,
)
from citewise.evaluation.dataset import Gold
from citewise.types import Answer, Citation, Hit

NOT_FOUND = "The documents do not contain this information."


def _hit(source: str) -> Hit:
    return Hit(1, 1, 1, source, source, None, None, "", 1.0, "text", 1)


def _answer(text: str, sources: list[str], intent: str = "question") -> Answer:
    cites = tuple(Citation(i + 1, s, None, "", i, "quote") for i, s in enumerate(sources))
    return Answer(text, intent, cites, tuple(_hit(s) for s in sources), True, "high", "s", {})


def test_must_contain_ignores_case_whitespace_and_commas() -> None:
    assert contains_all("The limit is 4 MB, or 4,096 KB.", ["4mb", "4096kb"])
    assert not contains_all("The limit is 4 GB.", ["4mb"])


def test_states_value_spots_numbers_and_code_but_not_plain_prose() -> None:
    assert states_value("It defaults to 128 [1].")
    assert states_value("Call os.path.join( with the parts [1].")
    assert not states_value("It depends on the platform [1].")


def test_citation_precision_and_recall_against_gold_files() -> None:
    gold = [Gold("a.html", "q"), Gold("b.html", "q")]
    good = score_answer("x", "multi", _answer("A [1]. B [2].", ["a.html", "b.html"]),
                        ["a"], gold, "", 10.0)  # fmt: skip
    half = score_answer("y", "multi", _answer("A [1]. C [2].", ["a.html", "c.html"]),
                        ["zzz"], gold, "", 30.0)  # fmt: skip
    summary = summarize_answers([good, half])["multi"]
    assert summary["citation_precision"] == 0.75
    assert summary["citation_recall"] == 0.75
    assert summary["must_contain"] == 0.5 and summary["p50_ms"] == 20.0


def test_unanswerable_counts_abstentions_and_stated_values() -> None:
    abstained = score_answer("u1", "unanswerable", _answer(NOT_FOUND, []), [], [], "", 1.0)
    claimed = score_answer("u2", "unanswerable", _answer("It is 42 [1].", ["a"]), [], [], "", 1.0)
    row = summarize_answers([abstained, claimed])["unanswerable"]
    assert row["abstained"] == 1 and row["states_value"] == 1


def test_chit_chat_scores_the_intent_and_any_citation() -> None:
    ok = score_answer("g", "greeting/garbage/off_topic", _answer("Hi!", [], "greeting"),
                      [], [], "greeting", 1.0)  # fmt: skip
    wrong = score_answer("h", "greeting/garbage/off_topic", _answer("X [1].", ["a"]),
                         [], [], "gratitude", 1.0)  # fmt: skip
    row = summarize_answers([ok, wrong])["greeting/garbage/off_topic"]
    assert row["intent_ok"] == 1 and row["cited_anything"] == 1


def _sourced(text: str, passages: list[str]) -> Answer:
    hits = tuple(
        Hit(i + 1, i, 1, "a.html", "a", None, None, "", 1.0, p, i) for i, p in enumerate(passages)
    )
    cites = (Citation(1, "a.html", None, "", 0, "quote"),)
    return Answer(text, "question", cites, hits, True, "high", "s", {})


def test_passage_ceiling_looks_at_the_first_and_the_first_three_sources() -> None:
    answer = _sourced("It depends [1].", ["No value here.", "Also none.", "The default is 4 MB."])
    result = score_answer("x", "lookup", answer, ["4mb"], [Gold("a.html", "q")], "", 1.0)
    assert result.must_contain == 0.0
    assert result.first_passage is False
    assert result.first_three is True
    assert result.answer_chars == len("It depends [1].")
    first = score_answer("y", "lookup", _sourced("4 MB [1].", ["Up to 4,096 kB or 4 MB."]),
                         ["4mb", "4096kb"], [Gold("a.html", "q")], "", 1.0)  # fmt: skip
    summary = summarize_answers([result, first])["lookup"]
    assert summary["first_passage"] == 0.5
    assert summary["first3"] == 1.0


def test_passage_ceiling_is_left_out_for_questions_without_strings() -> None:
    result = score_answer("u", "unanswerable", _sourced("No [1].", ["x"]), [], [], "", 1.0)
    assert result.first_passage is None
    assert "first_passage" not in summarize_answers([result])["unanswerable"]
