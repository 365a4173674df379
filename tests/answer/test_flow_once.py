"""A plain question is analysed once and embedded once on its way through the answer flow:
routing, retrieval, rerank, gate and the extractive answerer share the request's analysis and
vector instead of each reading or embedding the question again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.answer.flow import DocumentAnswerer
from citewise.answer.request import AnswerRequest
from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.chat.intents.router import IntentRouter
from citewise.embed.hashing import HashingEmbedder
from citewise.question import analysis
from citewise.types import Done, Event, SearchFilter
from citewise.types.vectors import Vectors
from support import write_corpus

QUESTION = "What is the default logging level?"
# every module that analyses a question it is not handed the analysis of
ANALYSING = (
    "citewise.answer.request",
    "citewise.question.question",
    "citewise.extractive.answerer",
    "citewise.extractive.parts",
    "citewise.retrieve.gate",
)


class CountingEmbedder(HashingEmbedder):
    """Counts the queries it embeds."""

    def __init__(self) -> None:
        super().__init__(dim=64)
        self.queries: list[str] = []
        self.counted: list[str] = []

    def count_tokens(self, text: str) -> int:
        self.counted.append(text)
        return super().count_tokens(text)

    def embed_query(self, text: str) -> Vectors:
        self.queries.append(text)
        return super().embed_query(text)


@pytest.fixture(scope="module")
def embedder() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture(scope="module")
def assistant(
    tmp_path_factory: pytest.TempPathFactory, embedder: CountingEmbedder
) -> Iterator[Assistant]:
    root = tmp_path_factory.mktemp("once")
    with Assistant(data_dir=root / "data", embedder=embedder) as a:
        a.ingest([write_corpus(root / "docs")])
        yield a


def _answerer(a: Assistant) -> DocumentAnswerer:
    """The answer flow as `services.build` wires it (retriever, reranker, gate, answerer)."""
    return inside(a).parts.conversation.get().answerer


def _answered(events: Iterator[Event]) -> Done:
    return next(e for e in events if isinstance(e, Done))


def test_a_plain_question_is_embedded_once_from_routing_to_the_answer(
    assistant: Assistant, embedder: CountingEmbedder
) -> None:
    answerer = _answerer(assistant)
    router = inside(assistant).parts.conversation.get().router
    router.route("warm up the exemplars", has_history=False)  # exemplar bank built once
    embedder.queries.clear()
    routed = router.route(QUESTION, has_history=False)
    assert routed.intent == "question" and routed.vector is not None
    req = AnswerRequest(QUESTION, SearchFilter(), question_vector=routed.vector)
    done = _answered(answerer.stream(req))
    assert "WARNING" in done.answer.answer
    assert embedder.queries == [QUESTION]


def test_the_intent_router_given_the_vector_does_not_embed_the_question(
    embedder: CountingEmbedder,
) -> None:
    router = IntentRouter(embedder)
    router.route("warm up the exemplars", has_history=False)
    vector = embedder.embed_query(QUESTION)
    embedder.queries.clear()
    routed = router.route(QUESTION, has_history=False, vector=vector)
    assert routed.intent == "question" and routed.vector is vector
    assert embedder.queries == []


def test_a_question_the_rules_route_is_not_embedded(embedder: CountingEmbedder) -> None:
    embedder.queries.clear()
    routed = IntentRouter(embedder).route("thanks!", has_history=False)
    assert routed.layer == "rules" and routed.vector is None and embedder.queries == []


def test_the_flow_embeds_a_question_that_comes_without_its_vector_once(
    assistant: Assistant, embedder: CountingEmbedder
) -> None:
    answerer = _answerer(assistant)
    embedder.queries.clear()
    done = _answered(answerer.stream(AnswerRequest(QUESTION, SearchFilter())))
    assert "WARNING" in done.answer.answer
    assert embedder.queries == [QUESTION]
    assert "search_embed_query" in done.answer.timings_ms


def test_the_question_is_analysed_once_per_answer(
    assistant: Assistant, embedder: CountingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    answerer = _answerer(assistant)
    asked: list[str] = []
    real = analysis.analyse

    def counting(question: str) -> analysis.Analysis:
        asked.append(question)
        return real(question)

    for module in (
        "citewise.answer.request",
        "citewise.question.question",
        "citewise.extractive.answerer",
        "citewise.retrieve.gate",
    ):
        monkeypatch.setattr(f"{module}.analyse", counting)
    done = _answered(answerer.stream(AnswerRequest(QUESTION, SearchFilter())))
    assert "WARNING" in done.answer.answer
    assert asked == [QUESTION]


def test_a_carried_analysis_is_not_computed_again(
    assistant: Assistant, embedder: CountingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    answerer = _answerer(assistant)
    carried = analysis.analyse(QUESTION)

    def refused(question: str) -> analysis.Analysis:
        raise AssertionError(f"analysed again: {question}")

    for module in (
        "citewise.answer.request",
        "citewise.question.question",
        "citewise.extractive.answerer",
        "citewise.retrieve.gate",
    ):
        monkeypatch.setattr(f"{module}.analyse", refused)
    req = AnswerRequest(QUESTION, SearchFilter(), analysis=carried)
    assert "WARNING" in _answered(answerer.stream(req)).answer.answer


def test_a_request_carrying_another_questions_analysis_is_analysed_afresh() -> None:
    other = analysis.analyse("Where are the logs kept?")
    req = AnswerRequest(QUESTION, SearchFilter(), analysis=other)
    assert req.analysed().question == QUESTION


def test_ask_through_the_facade_embeds_a_plain_question_once(
    assistant: Assistant, embedder: CountingEmbedder
) -> None:
    assistant.ask("warm up the exemplars")  # the router's exemplar bank is built once
    embedder.queries.clear()
    answer = assistant.ask(QUESTION)
    assert answer.intent == "question" and answer.citations
    assert embedder.queries == [QUESTION]


def test_a_repeated_question_counts_no_passage_s_tokens_again(
    assistant: Assistant, embedder: CountingEmbedder
) -> None:
    answerer = _answerer(assistant)
    req = AnswerRequest(QUESTION, SearchFilter())
    first = _answered(answerer.stream(req))
    embedder.counted.clear()
    again = _answered(answerer.stream(req))
    assert again.answer.answer == first.answer.answer
    assert embedder.counted == []


TWO_PARTS = "What is the default logging level, and how do I rotate the log files?"


def _each_once(queries: list[str]) -> None:
    repeated = sorted({q for q in queries if queries.count(q) > 1})
    assert not repeated, f"embedded more than once: {repeated}"


def test_a_two_part_question_embeds_each_distinct_text_once(
    assistant: Assistant, embedder: CountingEmbedder
) -> None:
    assistant.ask("warm up the exemplars")
    embedder.queries.clear()
    answer = assistant.ask(TWO_PARTS)
    assert answer.intent == "question" and answer.citations
    _each_once(embedder.queries)
    # the whole question and each part: the retriever, reranker and answerer share them
    assert TWO_PARTS in embedder.queries and len(embedder.queries) >= 3


def test_a_follow_up_embeds_each_distinct_text_once_and_carries_the_last_turn(
    assistant: Assistant, embedder: CountingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[AnswerRequest] = []
    answerer = _answerer(assistant)
    real = answerer.stream

    def recording(req: AnswerRequest) -> Iterator[Event]:
        seen.append(req)
        return real(req)

    monkeypatch.setattr(answerer, "stream", recording)
    first = assistant.ask("How long are rotated log files kept?", session_id="once-follow")
    assert first.citations
    embedder.queries.clear()
    follow = assistant.ask("And how are they compressed?", session_id="once-follow")
    assert follow.intent == "followup" and follow.rewritten_query
    # the router embeds what was typed, retrieval and the answerer the standalone form
    assert embedder.queries == ["And how are they compressed?", follow.rewritten_query]
    asked = seen[-1].asked()
    assert asked is seen[-1].question_object
    # a follow-up inherits the documents the last answer cited
    assert asked.prior is not None
    assert set(asked.prior.sources) == {c.source for c in first.citations}
