"""The LLM answer path over the real wire format, against the stand-in for a capable model:
the model's decline stands, an invented value or name never reaches the reader (retracted from
the stream), a wrong citation is repaired, an answer whose every sentence is dropped says it
could not be verified (no fallback, none of its text), and only transport failures (a server
down, a slow, cut or malformed stream) fall back to the extractive answer, saying so; a
malformed judge does not let an invention in."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from citewise.answer.generate import Generated, answer_with_fallback
from citewise.answer.prompts import UNVERIFIED
from citewise.llm.base import Timeouts
from citewise.llm.openai_compat import OpenAICompatLLM
from citewise.llm.retry import RetryPolicy
from citewise.testing.standin_llm import Behaviour, Faults, Knowledge, StandinServer
from citewise.types import NOT_FOUND, Retraction, Status, Token
from testing.standin_support import LOOKUP_PASSAGES, LOOKUP_Q, TRAP_Q, write_set

pytestmark = pytest.mark.integration

T = TypeVar("T")
EXTRACTIVE = "Your license is reinstated permanently prior to 60 days after the cessation [2]."


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[type[StandinServer]]:
    knowledge = Knowledge.load(write_set(tmp_path / "set.jsonl"))
    started: list[StandinServer] = []

    class Started(StandinServer):
        def __init__(self, mode: str = "faithful", judge: str = "json", **kw: object) -> None:
            super().__init__(knowledge, Behaviour(mode, judge), **kw)  # type: ignore[arg-type]
            started.append(self.start())

    yield Started
    for server in started:
        server.close()


def ask(
    server: StandinServer, question: str = LOOKUP_Q, read_timeout: float = 5.0
) -> tuple[list[object], Generated, list[str]]:
    asked: list[str] = []

    def extractive() -> str:
        asked.append("extractive")
        return EXTRACTIVE

    timeouts = Timeouts(connect=2.0, read=read_timeout)
    with OpenAICompatLLM(
        "standin", server.base_url, retry=RetryPolicy(retries=0), timeout=timeouts
    ) as llm:
        events, made = run(answer_with_fallback(llm, question, LOOKUP_PASSAGES, extractive))
    return events, made, asked


def run(gen: Generator[Status | Token | Retraction, None, T]) -> tuple[list[object], T]:
    events: list[object] = []
    while True:
        try:
            events.append(next(gen))
        except StopIteration as stop:
            return events, stop.value


def test_the_faithful_answer_streams_and_is_kept(serve: type[StandinServer]) -> None:
    events, made, asked = ask(serve("faithful"))
    assert len([e for e in events if isinstance(e, Token)]) > 3
    assert "60 days" in made.text and made.fallback is None and asked == []
    assert not [e for e in events if isinstance(e, Retraction)]


@pytest.mark.parametrize("judge", ["json", "malformed"])
def test_an_invented_value_is_retracted_and_never_reaches_the_reader(
    serve: type[StandinServer], judge: str
) -> None:
    server = serve("invented-value", judge)
    events, made, _ = ask(server)
    invented = server.model.records[0]["invented"][0]
    assert [e for e in events if isinstance(e, Retraction) and invented in e.sentence]
    assert invented not in made.text


def test_an_answer_with_every_sentence_dropped_is_unverified_not_a_fallback(
    serve: type[StandinServer],
) -> None:
    server = serve("invented-value")
    events, made, asked = ask(server)
    answers = [r for r in server.model.records if r["task"] in ("answer", "retry")]
    assert len(answers) == 2  # sent back once with the reason, then answered again
    assert made.text == UNVERIFIED and made.fallback is None and asked == []
    assert not made.report.sentences  # no claim of the model's, supported or not
    assert not [e for e in events if isinstance(e, Status) and e.stage == "fallback"]


@pytest.mark.parametrize("judge", ["json", "malformed"])
def test_an_invented_name_never_reaches_the_reader(serve: type[StandinServer], judge: str) -> None:
    server = serve("invented-name", judge)
    events, made, _ = ask(server)
    invented = server.model.records[0]["invented"][0]
    assert invented.lower() not in made.text.lower()
    assert [
        e for e in events if isinstance(e, Retraction) and invented.lower() in e.sentence.lower()
    ]


def test_a_wrong_citation_is_repaired(serve: type[StandinServer]) -> None:
    _, made, asked = ask(serve("wrong-citation"))
    assert "60 days" in made.text and made.text.endswith("[2].")
    assert made.fallback is None and asked == []


@pytest.mark.parametrize("mode", ["abstain", "faithful"])
def test_the_models_decline_is_the_answer(serve: type[StandinServer], mode: str) -> None:
    question = LOOKUP_Q if mode == "abstain" else TRAP_Q  # faithful declines the trap
    _, made, asked = ask(serve(mode), question)
    assert made.text == NOT_FOUND and made.fallback is None and asked == []


def test_a_cut_stream_falls_back_to_the_extractive_answer_saying_so(
    serve: type[StandinServer],
) -> None:
    events, made, _ = ask(serve(faults=Faults(cut_after=4)))
    assert made.text == EXTRACTIVE and made.fallback is not None
    assert made.fallback.used == "extractive" and "dropped" in made.fallback.reason
    assert [e for e in events if isinstance(e, Status) and e.stage == "fallback"]


def test_a_model_slower_than_the_timeout_falls_back_saying_so(serve: type[StandinServer]) -> None:
    _, made, _ = ask(serve(faults=Faults(token_delay=1.0)), read_timeout=0.3)
    assert made.text == EXTRACTIVE and made.fallback is not None
    assert "within" in made.fallback.reason or "timed out" in made.fallback.reason


def test_a_server_that_is_down_falls_back_saying_so(serve: type[StandinServer]) -> None:
    server = serve()
    server.close()  # nothing listens on its port any more
    events, made, asked = ask(server)
    assert made.text == EXTRACTIVE and asked == ["extractive"]
    assert made.fallback is not None and made.fallback.used == "extractive"
    assert "connect" in made.fallback.reason
    assert [e for e in events if isinstance(e, Status) and e.stage == "fallback"]


def test_a_malformed_stream_falls_back_saying_so(serve: type[StandinServer]) -> None:
    events, made, _ = ask(serve(faults=Faults(malformed_after=3)))
    assert [e for e in events if isinstance(e, Token)]  # the draft had begun
    assert made.text == EXTRACTIVE and made.fallback is not None
    assert made.fallback.used == "extractive" and "malformed" in made.fallback.reason
