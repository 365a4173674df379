"""The intent router: hard rules, the exemplar layer (on the hashing embedder), the LLM layer
(on a fake LLM), and the history fallback."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from citewise.chat.intents.router import IntentRouter, parse_llm_intent, reply_for
from citewise.chat.intents.rules import is_garbage, match_rules, tool_hint
from citewise.embed.hashing import HashingEmbedder
from citewise.errors import EmbedderError
from citewise.llm.base import LLMConnectionError
from citewise.testing.fakes import FakeLLM

# -- layer 1: rules --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("hi", "greeting"),
        ("hey", "greeting"),
        ("hello there", "greeting"),
        ("Hi! How are you?", "greeting"),
        ("good morning", "greeting"),
        ("Hey there, how's it going?", "greeting"),
        ("thanks a lot", "gratitude"),
        ("cheers, that's all I needed", "gratitude"),
        ("thank you!", "gratitude"),
        ("ok thanks, bye", "gratitude"),
        ("perfect", "gratitude"),
        ("", "garbage"),
        ("?!?", "garbage"),
        ("qwpoeiru zxmcnv", "garbage"),
        ("asdf", "garbage"),
        ("sdfsdfsdf", "garbage"),
        ("simplify that", "simplify"),
        ("explain it like I'm five", "simplify"),
        ("Could you say that in simpler terms, please?", "simplify"),
        ("tell me more", "deepen"),
        ("go deeper", "deepen"),
        ("more details please", "deepen"),
        ("elaborate", "deepen"),
    ],
)
def test_rules_recognise_whole_utterances(text: str, intent: str) -> None:
    rule = match_rules(text)
    assert rule is not None and rule.intent == intent


@pytest.mark.parametrize(
    "text",
    [
        "hi, what does functools.lru_cache do?",
        "How do I simplify a fraction with the fractions module?",
        "What documents do I need to submit for a visa?",
        "Is there a thank-you letter template in the handbook?",
        "kubernetes",
        "npm install fails with EACCES",
        "这个函数返回什么",
    ],
)
def test_rules_leave_real_questions_alone(text: str) -> None:
    assert match_rules(text) is None


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("Hi there! I just uploaded a batch of contracts.", "greeting"),
        ("Hello, here are our supplier agreements.", "greeting"),
        ("I've added the lease files.", "greeting"),
        ("Hey! I have a few questions about the NDAs.", "greeting"),
        ("Great, thanks a lot for your help with these agreements!", "gratitude"),
        ("Thanks for the answers on the contracts, bye", "gratitude"),
        ("That's very helpful for the contract review, thank you", "gratitude"),
        ("Thanks, that summary of the lease was exactly what I needed.", "gratitude"),
        ("Thanks, those slides were really helpful!", "gratitude"),
        ("Good evening! A pile of supplier contracts to read today.", "greeting"),
        ("Hello, I've added my slide decks, can you help?", "greeting"),
        ("Thanks, that clears up the warranty question.", "gratitude"),
        ("Perfect, thank you for explaining the non-compete.", "gratitude"),
        ("That answers it for the leases, thanks!", "gratitude"),
    ],
)
def test_chit_chat_that_mentions_the_documents_is_recognised(text: str, intent: str) -> None:
    rule = match_rules(text)
    assert rule is not None and rule.intent == intent


@pytest.mark.parametrize(
    "text",
    [
        "Hi! I just uploaded the contracts. What is the notice period?",
        "I uploaded the lease?",
        "Thanks. Who signs for the Distributor?",
        "We uploaded our NDAs, can you check their term",
        "Thanks for the help with the leases; when do they end",
        "Hi! Tell me the notice period.",
        "Hey, I need the termination clause",
        "Hi, the lease ends in May, when must I give notice",
        "Hi, can you help? What is the notice period?",
        "Hi! Can you help me with the termination clause?",
        "That covers the lease",  # no thanks: a statement to check, not a closing remark
        "Thanks, that explains why the fee is 25,000?",
    ],
)
def test_chit_chat_with_an_ask_stays_a_question(text: str) -> None:
    assert match_rules(text) is None


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("clear history", "clear_history"),
        ("Reset the conversation.", "clear_history"),
        ("please start over", "clear_history"),
        ("list documents", "list_documents"),
        ("What documents do you have?", "list_documents"),
        ("show me all the files", "list_documents"),
        ("help", "help"),
        ("What can you do?", "help"),
    ],
)
def test_commands_are_named(text: str, command: str) -> None:
    rule = match_rules(text)
    assert rule is not None and (rule.intent, rule.command) == ("command", command)


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("what is 17% of 2,340?", "calculator"),
        ("12*7", "calculator"),
        ("sqrt of 16", "calculator"),
        ("How much is 3 times 14?", "calculator"),
        ("what's today's date", "datetime"),
        ("What time is it?", "datetime"),
        ("what day is it today", "datetime"),
        ("What is the value of 0.1 + 0.2 in Python?", None),
        ("How much faster is Python 3.11 than 3.10?", None),
    ],
)
def test_tool_hints_only_for_plain_arithmetic_and_clock_questions(
    text: str, tool: str | None
) -> None:
    assert tool_hint(text) == tool


def test_tool_questions_route_as_questions_with_a_hint() -> None:
    routed = IntentRouter(None).route("what is 17% of 2,340?", has_history=False)
    assert (routed.intent, routed.tool, routed.layer) == ("question", "calculator", "rules")


def test_document_vocabulary_rescues_unusual_words() -> None:
    assert is_garbage("zxcvbnm qwrtpsdf")
    assert not is_garbage("zxcvbnm qwrtpsdf", known_word=lambda w: w in {"zxcvbnm", "qwrtpsdf"})


def test_follow_ups_need_history() -> None:
    router = IntentRouter(None)
    with_history = router.route("What is its default size?", has_history=True)
    assert (with_history.intent, with_history.layer) == ("followup", "rules")
    assert router.route("What is its default size?", has_history=False).intent == "question"
    assert router.route("simplify that", has_history=False).intent == "question"
    assert router.route("Why?", has_history=False).intent == "clarify"
    assert router.route("tell me more", has_history=True).intent == "deepen"


# -- layer 2: exemplars ------------------------------------------------------------------------

BANK = {
    "off_topic": ("weather forecast tomorrow rain sunshine", "pizza restaurant near me tonight"),
    "greeting": ("hello friend nice to meet you",),
    "question": ("how do I configure the database connection pool",),
}


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.texts = 0

    def embed_documents(self, texts: Sequence[str]):  # type: ignore[no-untyped-def]
        self.texts += len(texts)
        return super().embed_documents(texts)


def _router(**kwargs: object) -> IntentRouter:
    return IntentRouter(HashingEmbedder(), threshold=0.6, exemplars=BANK, **kwargs)  # type: ignore[arg-type]


def test_nearest_exemplar_above_threshold_decides() -> None:
    routed = _router().route("weather forecast tomorrow: rain or sunshine?", has_history=False)
    assert (routed.intent, routed.layer) == ("off_topic", "exemplars")
    assert routed.confidence >= 0.45


def test_weak_matches_fall_through_to_question() -> None:
    routed = _router().route("What is the maximum heap size of the JVM?", has_history=False)
    assert (routed.intent, routed.layer) == ("question", "default")
    assert "nearest exemplar" in routed.reason


def test_off_topic_yields_to_document_overlap_and_code_names() -> None:
    text = "weather forecast tomorrow rain sunshine"
    assert _router(doc_overlap=lambda _: 0.9).route(text, has_history=False).intent == "question"
    assert _router(doc_overlap=lambda _: 0.0).route(text, has_history=False).intent == "off_topic"
    coded = "weather forecast tomorrow rain sunshine in weather_api.fetch"
    assert _router().route(coded, has_history=False).intent == "question"


def test_exemplars_are_embedded_once() -> None:
    embedder = CountingEmbedder()
    router = IntentRouter(embedder, exemplars=BANK)
    for text in ("first question here", "second question here"):
        router.route(text, has_history=False)
    assert embedder.texts == 4 + 2  # the bank once, then one per message


def test_embedder_failure_skips_the_exemplar_layer() -> None:
    class Broken(HashingEmbedder):
        def embed_query(self, text: str):  # type: ignore[no-untyped-def]
            raise EmbedderError("embedding server down")

    routed = IntentRouter(Broken(), exemplars=BANK).route("how do I", has_history=False)
    assert routed.intent == "question" and "embedding server down" in routed.reason


# -- layer 3: LLM ------------------------------------------------------------------------------


def test_llm_decides_what_rules_and_exemplars_leave_open() -> None:
    llm = FakeLLM('{"intent": "off_topic", "command": null, "confidence": 0.8}')
    routed = IntentRouter(None, llm=llm).route("Who painted the ceiling?", has_history=False)
    assert (routed.intent, routed.layer, routed.confidence) == ("off_topic", "llm", 0.8)
    assert llm.calls and "Who painted the ceiling?" in llm.calls[0].messages[-1].content


def test_llm_is_not_asked_when_a_rule_decides() -> None:
    llm = FakeLLM()
    assert IntentRouter(None, llm=llm).route("thanks!", has_history=False).intent == "gratitude"
    assert llm.calls == []


@pytest.mark.parametrize("reply", [LLMConnectionError("no route to host"), "I think it's fine"])
def test_llm_failure_falls_back_and_says_so(reply: str | Exception) -> None:
    routed = IntentRouter(None, llm=FakeLLM(reply)).route("Who is Ada?", has_history=False)
    assert (routed.intent, routed.layer) == ("question", "default")
    assert "llm" in routed.reason


def test_llm_off_topic_is_overruled_by_the_documents() -> None:
    llm = FakeLLM('{"intent": "off_topic"}')
    router = IntentRouter(None, llm=llm, doc_overlap=lambda _: 0.8)
    assert router.route("Who won the chess tournament?", has_history=False).intent == "question"


def test_llm_follow_up_without_history_becomes_question() -> None:
    llm = FakeLLM('{"intent": "deepen", "confidence": 0.9}')
    routed = IntentRouter(None, llm=llm).route("the second approach", has_history=False)
    assert (routed.intent, routed.layer) == ("question", "llm")


@pytest.mark.parametrize(
    ("reply", "intent", "command"),
    [
        ('```json\n{"intent": "GREETING"}\n```', "greeting", None),
        ('{"intent": "command", "command": "list_documents"}', "command", "list_documents"),
        ('{"intent": "clarify_needed"}', "clarify", None),
        ("off-topic", "off_topic", None),
        ('{"intent": "command", "command": "format_disk"}', None, None),
        ('{"intent": "banter"}', None, None),
    ],
)
def test_llm_replies_are_parsed_robustly(
    reply: str, intent: str | None, command: str | None
) -> None:
    parsed = parse_llm_intent(reply)
    if intent is None:
        assert parsed is None
    else:
        assert parsed is not None and (parsed.intent, parsed.command) == (intent, command)


def test_canned_replies_exist_for_chit_chat_and_help() -> None:
    for intent in ("greeting", "gratitude", "garbage", "off_topic", "help", "clarify"):
        assert 10 < len(reply_for(intent)) < 200
    assert "documents" in reply_for("off_topic")
    with pytest.raises(ValueError):
        reply_for("question")


def test_embedder_factory_is_called_on_first_use_only() -> None:
    made: list[HashingEmbedder] = []

    def factory() -> HashingEmbedder:
        made.append(HashingEmbedder())
        return made[-1]

    router = IntentRouter(factory, exemplars=BANK)
    router.route("hello", has_history=False)
    assert made == []  # a rule decided; no model needed
    router.route("how do I configure the pool", has_history=False)
    router.route("how do I size the pool", has_history=False)
    assert len(made) == 1
