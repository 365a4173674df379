"""The relevance gate stands before both answer paths: with an LLM configured, a question that
passes it reaches the LLM with the top passages and the extractive answerer is not consulted;
a question it refuses reaches neither."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.extractive.answerer import ExtractiveAnswerer
from llm_clients.scripted_server import ScriptedServer
from llm_clients.wire import OpenAIWire
from support import write_corpus

pytestmark = pytest.mark.slow
NOT_FOUND = "The documents do not contain this information."


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Assistant]:
    root = tmp_path_factory.mktemp("gate")
    with Assistant(data_dir=root / "data") as a:
        a.ingest([write_corpus(root / "docs")])
        yield a


@pytest.fixture
def wire() -> Iterator[OpenAIWire]:
    server = ScriptedServer()
    w = OpenAIWire(server)
    yield w
    w.close()
    server.close()


def _not_consulted(*args: object, **kwargs: object) -> object:
    raise AssertionError("the extractive answerer ran although an LLM is configured")


def test_a_question_passing_the_gate_reaches_the_llm_without_the_extractive_answerer(
    assistant: Assistant, wire: OpenAIWire, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ExtractiveAnswerer, "answer", _not_consulted)
    wire.server.script(wire.stream(["Tokens expire after 12 hours [1]."]))
    chat = Assistant(
        settings=assistant.settings, embedder=inside(assistant).embedder(), llm=wire.client()
    )
    try:
        answer = chat.ask("How long are API tokens valid?")
    finally:
        chat.close()
    assert len(wire.server.requests) == 1
    assert "12 hours" in answer.answer and answer.citations
    assert "gate" in answer.timings_ms


def test_a_question_the_gate_refuses_reaches_no_answerer(
    assistant: Assistant, wire: OpenAIWire, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ExtractiveAnswerer, "answer", _not_consulted)
    chat = Assistant(
        settings=assistant.settings, embedder=inside(assistant).embedder(), llm=wire.client()
    )
    try:
        answer = chat.ask("Which Kubernetes version does the cluster run?")
    finally:
        chat.close()
    assert answer.answer == NOT_FOUND and wire.server.requests == []
