"""The stand-in model without a socket: it reads citewise's real prompts, answers each mode
as specified, and replies to every helper prompt in the format its caller parses."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.answer.generate import LLMSentenceJudge, generate_verified
from citewise.answer.prompts import (
    judge_prompt,
    map_prompt,
    reduce_prompt,
    retry_prompt,
    styled_question,
)
from citewise.chat.history_summary import summarize_turns
from citewise.chat.intents.router import IntentRouter
from citewise.chat.memory.base import Turn
from citewise.chat.query_router import QueryRouter
from citewise.chat.rewrite import PriorTurn, rewrite
from citewise.evaluation.dataset import Gold
from citewise.retrieve.rerank.models import LLMReranker
from citewise.testing.standin_llm import (
    DECLINE,
    Asked,
    Behaviour,
    Knowledge,
    Request,
    StandinModel,
    compose,
    task_of,
)
from citewise.testing.standin_llm import Passage as SetPassage
from citewise.types import Status, Token
from testing.standin_support import (
    APACHE,
    BSD,
    FIRST_TURN_Q,
    FOLLOW_UP_Q,
    GPL,
    LOOKUP_PASSAGES,
    LOOKUP_Q,
    MPL,
    MULTI_Q,
    TRAP_Q,
    UNRELATED,
    InProcessLLM,
    answer_messages,
    passages,
    write_set,
)


@pytest.fixture
def knowledge(tmp_path: Path) -> Knowledge:
    return Knowledge.load(write_set(tmp_path / "set.jsonl"))


def model(knowledge: Knowledge, mode: str = "faithful", **kw: str) -> StandinModel:
    return StandinModel(knowledge, Behaviour(mode, **kw))  # type: ignore[arg-type]


def test_faithful_answer_cites_the_passage_holding_the_gold_quote(knowledge: Knowledge) -> None:
    m = model(knowledge)
    text = m.reply(answer_messages(LOOKUP_Q, LOOKUP_PASSAGES))
    assert text.startswith("60 days: the licence is restored permanently")
    assert text.endswith("[2].")
    record = m.records[-1]
    assert (record["task"], record["matched"], record["gold_passages"]) == ("answer", "t-l01", [2])


def test_multi_answer_cites_each_sentence_to_its_own_source(knowledge: Knowledge) -> None:
    shown = passages(("bsd.txt", BSD), ("artistic.txt", UNRELATED), ("apache.txt", APACHE))
    text = model(knowledge).reply(answer_messages(MULTI_Q, shown))
    first, second = text.split(". The BSD")
    assert first.endswith("[3]") and second.endswith("[1].")


def test_declines_when_no_passage_holds_a_gold_quote(knowledge: Knowledge) -> None:
    m = model(knowledge)
    assert m.reply(answer_messages(LOOKUP_Q, passages(("gpl-3.pdf", UNRELATED)))) == DECLINE
    assert m.reply(answer_messages(TRAP_Q, LOOKUP_PASSAGES)) == DECLINE


def test_a_multi_sentence_missing_its_source_is_left_out(knowledge: Knowledge) -> None:
    text = model(knowledge).reply(answer_messages(MULTI_Q, passages(("apache.txt", APACHE))))
    assert "Apache" in text and "BSD" not in text


def test_invented_value_changes_the_key_number_to_one_no_passage_shows(
    knowledge: Knowledge,
) -> None:
    m = model(knowledge, "invented-value")
    text = m.reply(answer_messages(LOOKUP_Q, LOOKUP_PASSAGES))
    new = m.records[-1]["invented"][0]
    assert "60" not in text and f"{new} days" in text and new not in GPL
    assert m.records[-1]["replaced"] == ["60"]


def test_invented_name_replaces_a_key_term_with_a_made_up_word(knowledge: Knowledge) -> None:
    m = model(knowledge, "invented-name")
    shown = passages(("apache.txt", APACHE), ("bsd.txt", BSD))
    text = m.reply(answer_messages(MULTI_Q, shown))
    made_up = m.records[-1]["invented"][0]
    assert m.records[-1]["replaced"] == ["without warranties"]
    assert "without warranties" not in text.lower() and made_up in text.lower()


def test_invented_name_takes_a_capitalised_name_when_no_term_is_asked_for(
    knowledge: Knowledge,
) -> None:
    m = model(knowledge, "invented-name")
    m.reply(answer_messages(LOOKUP_Q, LOOKUP_PASSAGES))
    assert m.records[-1]["replaced"] == ["Free Software Foundation"]


def test_wrong_citation_keeps_the_text_and_cites_a_passage_without_gold(
    knowledge: Knowledge,
) -> None:
    faithful = model(knowledge).reply(answer_messages(LOOKUP_Q, LOOKUP_PASSAGES))
    wrong = model(knowledge, "wrong-citation").reply(answer_messages(LOOKUP_Q, LOOKUP_PASSAGES))
    assert wrong == faithful.replace("[2]", "[1]")


def test_abstain_declines_even_with_the_gold_passage_shown(knowledge: Knowledge) -> None:
    assert model(knowledge, "abstain").reply(answer_messages(LOOKUP_Q, LOOKUP_PASSAGES)) == DECLINE


def test_a_retry_is_recognised_and_answered_like_the_first_attempt(knowledge: Knowledge) -> None:
    from citewise.answer.context import render_context

    m = model(knowledge)
    user = retry_prompt(LOOKUP_Q, render_context(LOOKUP_PASSAGES), ["It is 90 days [2]."])
    text = m.reply([{"role": "user", "content": user}])
    assert m.records[-1]["task"] == "retry" and text.endswith("[2].")


def test_every_prompt_citewise_sends_is_read_as_its_task() -> None:
    evidence = judge_prompt("It is 60 days.", GPL)
    assert task_of("", evidence) == "judge"
    assert task_of("", map_prompt("[1] a.txt\nSome text.")) == "map"
    assert task_of("", reduce_prompt("Guide", ["One [1].", "Two [2]."])) == "reduce"
    request = Request.of(answer_messages(styled_question(LOOKUP_Q, "simple"), LOOKUP_PASSAGES))
    assert request.task == "answer"
    assert request.question() == (LOOKUP_Q, "simple")
    deep = Request.of(answer_messages(styled_question(LOOKUP_Q, "deep"), LOOKUP_PASSAGES))
    assert deep.question() == (LOOKUP_Q, "deep")
    assert [(p.n, p.source) for p in request.passages()] == [(1, "artistic.txt"), (2, "gpl-3.pdf")]


def test_the_judge_supports_the_reference_and_rejects_inventions(knowledge: Knowledge) -> None:
    m = model(knowledge, "invented-value")
    text = m.reply(answer_messages(LOOKUP_Q, LOOKUP_PASSAGES))
    judge = LLMSentenceJudge(InProcessLLM(m))
    assert judge.judge(text, GPL) is False  # the invented number
    faithful = model(knowledge).reply(answer_messages(LOOKUP_Q, LOOKUP_PASSAGES))
    assert judge.judge(faithful, GPL) is True
    assert judge.judge(faithful, UNRELATED) is False  # a wrong citation's evidence


def test_a_malformed_judge_leaves_the_caller_undecided(knowledge: Knowledge) -> None:
    judge = LLMSentenceJudge(InProcessLLM(model(knowledge, judge="malformed")))
    assert judge.judge("The licence is restored within 60 days.", GPL) is None


def test_the_intent_classifier_gets_the_sets_labels(knowledge: Knowledge) -> None:
    router = IntentRouter(None, llm=InProcessLLM(model(knowledge)))
    fallback = router.route(LOOKUP_Q, has_history=False)
    assert router._ask_llm("hey there", False, fallback).intent == "greeting"
    assert router._ask_llm(FOLLOW_UP_Q, True, fallback).intent == "followup"
    assert router._ask_llm(LOOKUP_Q, False, fallback).intent == "question"


def test_the_query_classifier_calls_multi_questions_complex(knowledge: Knowledge) -> None:
    router = QueryRouter(llm=InProcessLLM(model(knowledge)), llm_min_words=3)
    assert router.plan(MULTI_Q).kind == "complex"
    assert (router.plan(LOOKUP_Q).kind, router.plan(LOOKUP_Q).method) == ("simple", "llm")


def test_rewrite_spells_out_the_conversations_subject(knowledge: Knowledge) -> None:
    history = [PriorTurn(FIRST_TURN_Q, "The Mozilla Foundation [1].")]
    rw = rewrite(FOLLOW_UP_Q, history, llm=InProcessLLM(model(knowledge)), intent="followup")
    assert rw.method == "llm"
    assert rw.query.startswith(FOLLOW_UP_Q.rstrip("?")) and "Mozilla Public License" in rw.query
    m = model(knowledge)
    m.reply(answer_messages(rw.query, passages(("mpl.html", MPL))))
    assert m.records[-1]["matched"] == "t-v01#1"


def test_history_summary_map_reduce_and_rerank_replies_parse(knowledge: Knowledge) -> None:
    m = model(knowledge)
    llm = InProcessLLM(m)
    turns = [Turn(session_id="s", question=LOOKUP_Q, answer="60 days [1].", intent="question")]
    assert LOOKUP_Q.rstrip("?") in summarize_turns(turns, llm)
    mapped = m.reply([{"role": "user", "content": map_prompt("[1] a.txt\nOne. Two. Three.")}])
    assert mapped == "One [1]. Two [1]."
    hits = [p.hit for p in LOOKUP_PASSAGES]
    reranked = LLMReranker(llm).rerank(LOOKUP_Q, hits, k=2)
    assert reranked[0].source == "gpl-3.pdf"


def test_generation_through_citewise_keeps_the_faithful_answer(knowledge: Knowledge) -> None:
    flow = generate_verified(InProcessLLM(model(knowledge)), LOOKUP_Q, LOOKUP_PASSAGES)
    events: list[Status | Token] = []
    try:
        while True:
            events.append(next(flow))
    except StopIteration as stop:
        draft = stop.value
    assert "60 days" in draft.text and not draft.declined and draft.dropped == 0


def test_invented_value_leaves_an_answer_without_a_number_alone(knowledge: Knowledge) -> None:
    m = model(knowledge, "invented-value")
    shown = passages(("mpl.html", MPL))
    text = m.reply(answer_messages(f"{FOLLOW_UP_Q} ({FIRST_TURN_Q.rstrip('?')})?", shown))
    assert text.startswith("No one other than the license steward") and text.endswith("[1].")
    assert m.records[-1]["invented"] == [] and m.records[-1]["matched"] == "t-v01#1"


def test_a_passage_with_the_quotes_words_but_not_its_value_does_not_show_the_fact() -> None:
    asked = Asked(
        "t-pg", "lookup", "What is the default work_mem?", "work_mem defaults to 4MB.",
        ("4mb",), (Gold(file="conf.html", quote="The default value is four megabytes"),),
    )  # fmt: skip
    lookalike = SetPassage(1, "conf.html", "", "The default value is 2.0, the multiplier.")
    stating = SetPassage(2, "conf.html", "", "The default value is four megabytes (4MB).")
    assert compose(asked, [lookalike], "faithful").declined
    made = compose(asked, [lookalike, stating], "faithful")
    assert made.cited == (2,) and made.text.endswith("[2].")


def test_a_quotes_value_counts_only_where_the_passage_would_say_the_quote() -> None:
    asked = Asked(
        "t-pg2", "lookup", "How often does the launcher wake up?", "Every minute (1min).",
        ("1min",), (Gold(file="conf.html", quote="The default is one minute"),),
    )  # fmt: skip
    elsewhere = SetPassage(1, "conf.html", "", "Workers at any one time. The default is three.")
    stating = SetPassage(2, "conf.html", "", "Seconds between runs. The default is one minute.")
    assert compose(asked, [elsewhere], "faithful").declined
    assert compose(asked, [elsewhere, stating], "faithful").cited == (2,)


def test_invented_value_changes_a_number_written_against_its_unit() -> None:
    asked = Asked(
        "t-ch", "lookup", "How long is the lease extended?", "The default extension is 12s.",
        ("12s",), (Gold(file="chubby.pdf", quote="The default extension is 12s"),),
    )  # fmt: skip
    shown = [SetPassage(1, "chubby.pdf", "", "The default extension is 12s, or more.")]
    made = compose(asked, shown, "invented-value")
    assert made.replaced == ("12",) and "12s" not in made.text and made.invented
