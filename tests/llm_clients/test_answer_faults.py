"""LLM faults through the whole answer flow (`Assistant` over a small corpus, the LLM behind
the scripted server speaking the OpenAI wire format): a server that is down, too slow, sends
malformed JSON or cuts its stream gives the extractive answer marked as a fallback, the turn is
kept in the conversation, and the next question works once the server is back, with the same
`Assistant` (no restart)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.types import Answer, Done, Status, Token
from llm_clients.scripted_server import ScriptedServer, sse_reply
from llm_clients.wire import OpenAIWire
from support import write_corpus

pytestmark = pytest.mark.slow
QUESTION = "How long are API tokens valid?"
GOOD = ["Tokens expire ", "after 12 hours ", "[1]."]


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Assistant]:
    root = tmp_path_factory.mktemp("faults")
    with Assistant(data_dir=root / "data") as a:
        a.ingest([write_corpus(root / "docs")])
        yield a


@pytest.fixture
def chat(assistant: Assistant, openai: OpenAIWire) -> Iterator[Assistant]:
    c = Assistant(
        settings=assistant.settings,
        embedder=inside(assistant).embedder(),
        llm=openai.client(timeout=1.0),
    )
    yield c
    c.close()


def assert_extractive_fallback(answer: Answer, says: str) -> None:
    assert "12 hours" in answer.answer, answer.answer
    assert answer.answer != "The documents do not contain this information."
    assert answer.citations and answer.citations[0].source == "reference/api.html"
    assert answer.fallback is not None and answer.fallback.used == "extractive"
    assert says in answer.fallback.reason, answer.fallback.reason
    assert answer.to_json()["fallback"] == {"used": "extractive", "reason": answer.fallback.reason}
    assert answer.timings_ms["llm_fallback"] == 1.0


def assert_answered_by_the_model(chat: Assistant, server: ScriptedServer, sid: str) -> None:
    server.script(OpenAIWire(server).stream(GOOD))
    answer = chat.ask(QUESTION, session_id=sid)
    assert answer.answer == "Tokens expire after 12 hours [1]." and answer.fallback is None
    assert server.pending == 0


def test_server_down_falls_back_and_recovers_when_it_is_back(
    assistant: Assistant, server: ScriptedServer, openai: OpenAIWire
) -> None:
    port = server.port
    chat = Assistant(
        settings=assistant.settings,
        embedder=inside(assistant).embedder(),
        llm=openai.client(timeout=1.0),
    )
    server.close()  # nothing listens on the port any more
    try:
        events = list(chat.stream(QUESTION, session_id="down"))
        answer = events[-1].answer  # type: ignore[union-attr]
        assert_extractive_fallback(answer, "cannot connect")
        stages = [e.stage for e in events if isinstance(e, Status)]
        assert "fallback" in stages
        assert [t.answer for t in inside(chat).memory.turns("down")] == [
            answer.answer
        ]  # nothing lost

        back = ScriptedServer(port=port)  # the server is restarted; the assistant is not
        try:
            assert_answered_by_the_model(chat, back, "down")
            assert len(inside(chat).memory.turns("down")) == 2
        finally:
            back.close()
    finally:
        chat.close()


def test_a_server_slower_than_the_timeout_falls_back(
    chat: Assistant, server: ScriptedServer, openai: OpenAIWire
) -> None:
    server.script(openai.stream(GOOD, delay=2.5))  # the client's read timeout is 1 s
    answer = chat.ask(QUESTION, session_id="slow")
    assert_extractive_fallback(answer, "did not answer within 1 s")
    assert len(server.requests) == 1  # a read timeout is not retried: it would add the wait
    assert_answered_by_the_model(chat, server, "slow")


def test_malformed_json_in_the_stream_falls_back(chat: Assistant, server: ScriptedServer) -> None:
    server.script(sse_reply(["data: {not json\n\n"]))
    answer = chat.ask(QUESTION, session_id="bad")
    assert_extractive_fallback(answer, "malformed JSON")
    assert_answered_by_the_model(chat, server, "bad")


def test_a_stream_cut_midway_keeps_its_deltas_and_ends_with_the_fallback(
    chat: Assistant, server: ScriptedServer, openai: OpenAIWire
) -> None:
    # the connection drops after the first event
    server.script(openai.stream(["Tokens expire after ", "48 hours [1]."], drop_after=1))
    events = list(chat.stream(QUESTION, session_id="cut"))
    tokens = "".join(e.text for e in events if isinstance(e, Token))
    assert tokens == "Tokens expire after "  # what was streamed before the cut
    final = events[-1]
    assert isinstance(final, Done)
    assert_extractive_fallback(final.answer, "dropped after 20 chars")
    assert_answered_by_the_model(chat, server, "cut")
